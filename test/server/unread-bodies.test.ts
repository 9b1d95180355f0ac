/**
 * Bodies are read only for requests whose head passed: a request without a key, for an unknown
 * endpoint or route, or declaring too large a body is answered before a byte of its body is
 * read; and the body bytes being read at once are bounded server-wide (503 with Retry-After).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, serve, type Served } from './serve-helper.js';
import { startServeChild, type ServeChild } from './serve-child.js';
import { codeOf, rawExchange, type RawAnswer } from './raw-http.js';

const MiB = 1024 * 1024;
const head = (path: string, bytes: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${bytes}\r\n${extra}\r\n`;
/** A JSON body of exactly `bytes` bytes. */
const body = (bytes: number) => {
  const b = Buffer.alloc(bytes, 0x61);
  b.write('{"input":{"p":"');
  b.write('"}}', bytes - 3);
  return b;
};

describe('a flood of unauthenticated 20 MiB bodies (serve as a child process)', () => {
  let c: ServeChild;
  beforeAll(async () => {
    c = await startServeChild(['--clock', 'manual', '--api-key', KEY]);
  });
  afterAll(() => c.stop());

  it('40 concurrent /runsync bodies: each answered 401, serve stays under 200 MB', async () => {
    const before = c.rssMb();
    const big = body(20 * MiB);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        rawExchange(c.port, (s) => {
          s.write(head('/v2/ep/runsync', big.length));
          s.end(big);
        }),
      ),
    );
    const after = c.rssMb();
    console.log(`keyless flood: serve RSS ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB`);
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(codeOf(a)).toBe('API_ERR_UNAUTHORIZED');
    }
    expect(after.peak).toBeLessThan(200);
  });
});

describe('answers from the head', () => {
  let t: Served;
  beforeAll(async () => {
    t = await serve({}, {}, { bounds: { requestBodyBytesInFlight: MiB } });
  });
  afterAll(() => t.close());

  /** Sends a head with `Expect: 100-continue` and resolves on the answer, the body never sent. */
  const headOnly = (path: string, bytes: number, auth: string) => rawExchange(t.s.port, (s) => s.write(head(path, bytes, `expect: 100-continue\r\n${auth}`)));

  it('401, 404, 405 and 413 come without the body (Expect: 100-continue gets no 100)', async () => {
    const auth = `authorization: Bearer ${KEY}\r\n`;
    const cases: [string, number, string, number, string][] = [
      ['/v2/ep/run', 1000, '', 401, 'API_ERR_UNAUTHORIZED'],
      ['/v2/nope/run', 1000, auth, 404, 'API_ERR_ENDPOINT_NOT_FOUND'],
      ['/v2/ep/bogus', 1000, auth, 404, 'API_ERR_ROUTE_NOT_FOUND'],
      ['/v2/ep/health', 1000, auth, 405, 'API_ERR_METHOD_NOT_ALLOWED'],
      ['/v2/ep/run', 10 * MiB + 1, auth, 413, 'API_ERR_PAYLOAD_TOO_LARGE'],
    ];
    for (const [path, bytes, a, status, code] of cases) {
      const r: RawAnswer = await headOnly(path, bytes, a);
      expect(r.continued, path).toBe(false);
      expect(r.status, path).toBe(status);
      expect(codeOf(r), path).toBe(code);
      expect(r.head.toLowerCase(), path).toContain('connection: close');
    }
  });

  it('beyond the in-flight body bytes: 503 SRV_ERR_BUSY with Retry-After, and 200 once the first body is read', async () => {
    const auth = `authorization: Bearer ${KEY}\r\n`;
    const size = 700 * 1024;
    // A: head passed and its 700 KiB counted (it got its 100 Continue); its body not sent yet.
    let sendA!: () => void;
    const gotContinue = new Promise<void>((resolve) => {
      void rawExchange(t.s.port, (s) => {
        s.write(head('/v2/ep/run', size, `expect: 100-continue\r\n${auth}`));
        s.once('data', () => resolve());
        sendA = () => s.write(body(size));
      }).then((a) => answerA(a));
    });
    let answerA!: (a: RawAnswer) => void;
    const a = new Promise<RawAnswer>((r) => {
      answerA = r;
    });
    await gotContinue;
    const b = await rawExchange(t.s.port, (s) => {
      s.write(head('/v2/ep/run', size, auth));
      s.end(body(size));
    });
    expect(b.status).toBe(503);
    expect(codeOf(b)).toBe('SRV_ERR_BUSY');
    expect(b.head.toLowerCase()).toContain('retry-after: 1');
    sendA();
    expect((await a).status).toBe(200);
    const c = await t.call('POST', '/run', undefined, { raw: body(size), headers: { 'content-type': 'application/json' } });
    expect(c.status).toBe(200);
  });
});
