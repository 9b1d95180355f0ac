/**
 * Thousands of malformed requests against a real server (seeded, so a failure replays): random
 * methods, paths, percent-encodings, headers and bodies over undici, then raw bytes over TCP.
 * Never a 5xx, never a crash or a hang; the server still answers afterwards.
 */
import { connect } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, serve, type Served } from './serve-helper.js';

let t: Served;
beforeAll(async () => {
  t = await serve({ jobDurationMs: 100, workersMax: 2 }, {}, { clock: 'real', speed: 1000 });
});
afterAll(() => t.close());

/** mulberry32: a tiny seeded generator, enough to replay a failing case. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'M-SEARCH'];
const SEGMENTS = [
  'v2',
  'ep',
  'nope',
  'run',
  'runsync',
  'status',
  'status-sync',
  'stream',
  'cancel',
  'retry',
  'purge-queue',
  'health',
  'requests',
  'openai',
  'v1',
  'chat',
  'completions',
  'models',
  '_sim',
  'clock',
  'advance',
  'metrics',
  'healthz',
  '',
  '..',
  '.',
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%2F',
  '%u0041',
  'ünï',
  '\u{1F600}',
  'a'.repeat(300),
  '__proto__',
  'constructor',
  'sync-x-u1',
];
const QUERIES = [
  '',
  '?wait=',
  '?wait=-1',
  '?wait=1e9',
  '?wait=abc',
  '?ttl=0',
  '?ttl=%',
  '?ttl=99999999999999',
  '?a=1&a=2',
  '?&&&',
  '?=',
  '?__proto__=1',
  '?wait=1000&ttl=1',
];

function body(r: ReturnType<typeof rng>): string | Buffer | undefined {
  switch (r.int(12)) {
    case 0:
      return undefined;
    case 1:
      return '';
    case 2:
      return '{';
    case 3:
      return 'null';
    case 4:
      return JSON.stringify({
        input: r.pick([
          null,
          1,
          'x',
          [],
          {},
          { sim: r.pick([1, null, { durationMs: -1 }, { chunks: 0 }, { outputBytes: 1e12 }, { crash: 'yes' }, { nope: 1 }]) },
        ]),
      });
    case 5:
      return JSON.stringify({
        input: {},
        policy: r.pick([null, 1, { ttl: 1 }, { executionTimeout: 5000 }, { lowPriority: 'no' }, { x: 1 }]),
        webhook: r.pick([1, 'ftp://x', 'http://', 'javascript:alert(1)']),
      });
    case 6:
      return Buffer.from(Array.from({ length: r.int(512) }, () => r.int(256)));
    case 7:
      return `{"input":${'['.repeat(2000 + r.int(5000))}`;
    case 8:
      return `{"input":{"a":${'['.repeat(600)}${']'.repeat(600)}}}`;
    case 9:
      return JSON.stringify({ messages: r.pick([[], 'x', [{}]]), max_tokens: r.pick([0, -1, 1e9, 'x']), stream: r.pick([1, 'yes']) });
    case 10:
      return JSON.stringify({ ms: r.pick([-1, 1.5, 'x', 1e15]) });
    default:
      return `\uFEFF${'"'.repeat(r.int(50))}\\u12`;
  }
}

describe('fuzz', () => {
  it('3000 malformed requests over HTTP: every answer is below 500', async () => {
    const pool = new Pool(t.s.origin, { connections: 8 });
    const r = rng(20260101);
    const statuses = new Map<number, number>();
    const fails: string[] = [];
    for (let batch = 0; batch < 60; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const n = 1 + r.int(5);
          const path = `/${Array.from({ length: n }, () => r.pick(SEGMENTS)).join('/')}${r.pick(QUERIES)}`;
          const method = r.pick(METHODS);
          const headers: Record<string, string> = {};
          if (r.next() < 0.8) headers.authorization = r.pick([KEY, `Bearer ${KEY}`, 'Bearer', '', 'x'.repeat(1000), `Bearer ${KEY}\u00e9`]);
          if (r.next() < 0.3) headers['content-type'] = r.pick(['application/json', 'text/plain', 'multipart/form-data; boundary=x', '']);
          const b = method === 'GET' || method === 'HEAD' ? undefined : body(r);
          try {
            const res = await pool.request({
              path: encodeURI(path).replace(/%25/g, '%'),
              method,
              headers,
              body: b,
              headersTimeout: 10_000,
              bodyTimeout: 10_000,
            });
            await res.body.dump();
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (res.statusCode >= 500) fails.push(`${method} ${path} -> ${res.statusCode}`);
          } catch (e) {
            fails.push(`${method} ${path} -> ${(e as Error).message}`);
          }
        }),
      );
    }
    await pool.close();
    expect(fails).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(3000);
    expect((await t.call('GET', '/healthz')).status).toBe(200);
  });

  it('raw bytes, bad request lines and oversized heads over TCP: a 4xx or a close, never a hang', async () => {
    const r = rng(7);
    const cases: string[] = [
      'GARBAGE\r\n\r\n',
      'GET\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /v2/ep/health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST /v2/ep/run HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n',
      'POST /v2/ep/run HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      `GET /v2/ep/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'GET /v2/ep/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      '\x00\x01\x02\x03\r\n\r\n',
    ];
    for (let i = 0; i < 290; i++) cases.push(`${Buffer.from(Array.from({ length: 1 + r.int(300) }, () => r.int(256))).toString('latin1')}\r\n\r\n`);
    const outcomes = await Promise.all(
      cases.map(
        (c) =>
          new Promise<string>((resolve) => {
            const s = connect(t.s.port, '127.0.0.1');
            let data = '';
            const timer = setTimeout(() => {
              s.destroy();
              resolve('open');
            }, 30_000);
            s.on('data', (d) => (data += d.toString('latin1')));
            s.on('error', () => undefined);
            s.on('close', () => {
              clearTimeout(timer);
              resolve(data.slice(0, 12));
            });
            s.end(Buffer.from(c, 'latin1'));
          }),
      ),
    );
    const bad = outcomes.filter((o) => o === 'open' || /^HTTP\/1\.1 5/.test(o));
    expect(bad).toEqual([]);
    expect(outcomes[6]).toBe('HTTP/1.1 431');
    expect(outcomes[7]).toBe('HTTP/1.1 414');
    expect((await t.call('GET', '/healthz')).status).toBe(200);
  });

  it('a chunked body past the limit is answered 413 without reading it all', async () => {
    const s = connect(t.s.port, '127.0.0.1');
    let data = '';
    s.on('data', (d) => (data += d));
    s.on('error', () => undefined);
    await new Promise<void>((r) => s.once('connect', () => r()));
    s.write(`POST /v2/ep/cancel/some-id HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // 1 MiB is the limit of /cancel; send 4 MiB unless the server answers first.
    for (let i = 0; i < 64 && !data; i++) {
      s.write(`${chunk.length.toString(16)}\r\n`);
      s.write(chunk);
      s.write('\r\n');
      await new Promise((r) => setTimeout(r, 2));
    }
    // The answer may still be on its way on a busy machine: wait for its body (at most 5 s).
    for (const until = Date.now() + 5000; !data.includes('API_ERR_') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
    s.destroy();
    expect(data).toMatch(/^HTTP\/1\.1 413/);
    expect(data).toContain('API_ERR_PAYLOAD_TOO_LARGE');
  });
});
