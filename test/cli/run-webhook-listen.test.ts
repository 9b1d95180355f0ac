/**
 * `loadlab run --target … --webhook-listen HOST:PORT --webhook-url URL`: the webhook receiver
 * where an endpoint elsewhere can reach it. A `loadlab serve` delivers through a stand-in tunnel
 * (an HTTP server of this test on 127.0.0.2 that forwards what it gets to the receiver, as
 * cloudflared or ngrok would): deliveries and their retries are recorded; requests without the
 * token, with a wrong one, or not a POST are answered 404 and counted `refused`, bodies that are
 * no delivery `malformed`, neither recorded; the token shows in no report, log or message. Bad
 * flags exit 2 naming the flag, before anything is sent.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/report/run-result.js';
import { batched } from '../helpers/cli-batch.js';
import { startServe } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-webhook-listen-'));
const KEY = 'k';
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;

/** 10 jobs in 1 s; the receiver fails every first attempt, serve retries 300 ms later. Only a send 5 s late counts (a busy machine). */
const file = join(dir, 'hooks.json');
writeFileSync(
  file,
  JSON.stringify({
    name: 'hooks',
    seed: 3,
    durationMs: 1000,
    drainMs: 10_000,
    openModel: { lateAfterMs: 5000 },
    endpoint: { id: 'ep', workersMax: 5, jobDurationMs: 50, webhook: { attempts: 3, intervalMs: 300 } },
    webhookReceiver: { failFirstAttempts: 1 },
    traffic: [{ name: 'w', arrival: { process: 'constant', ratePerSec: 10 }, client: { behaviour: 'run-webhook' } }],
  }),
);
const noHooks = join(dir, 'polls.json');
writeFileSync(
  noHooks,
  JSON.stringify({
    name: 'polls',
    durationMs: 1000,
    traffic: [{ name: 'p', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
  }),
);

/** Held by this test for the "in use" refusals. */
const busy = createServer();
const busyPort = new Promise<number>((resolve) => busy.listen(0, '127.0.0.2', () => resolve((busy.address() as AddressInfo).port)));
afterAll(() => {
  busy.close();
  rmSync(dir, { recursive: true, force: true });
});

function listen(s: Server | ReturnType<typeof createServer>, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => resolve((s.address() as AddressInfo).port));
  });
}

async function freePort(host: string): Promise<number> {
  const s = createServer();
  const port = await listen(s, host);
  await new Promise((resolve) => s.close(resolve));
  return port;
}

async function post(url: string, body: string | Buffer, method = 'POST'): Promise<number> {
  const r = await request(url, { method: method as 'POST', headers: { 'content-type': 'application/json' }, ...(method === 'GET' ? {} : { body }) });
  await r.body.dump();
  return r.statusCode;
}

describe('loadlab run --webhook-listen --webhook-url', () => {
  test('through a tunnel: deliveries and retries recorded; no token, a wrong one or a GET is 404 and counted refused; a bad body malformed; the token shown nowhere', async () => {
    const srv = await startServe(['--api-key', KEY, '--config', file]);
    const receiverPort = await freePort('127.0.0.2');
    const receiver = `http://127.0.0.2:${receiverPort}`;
    /** Paths the endpoint POSTed to (through the tunnel), and what the requests that are no delivery got. */
    const paths: string[] = [];
    const strays: Record<string, number> = {};
    let strayed: Promise<void> | undefined;
    const sendStrays = async (path: string): Promise<void> => {
      const delivery = JSON.stringify({ id: 'stray-1', status: 'COMPLETED', delayTime: 1, executionTime: 1 });
      const wrong = path.replace(/[^/]+$/, 'A'.repeat(22));
      strays['POST without the token'] = await post(`${receiver}/hooks/webhook`, delivery);
      strays['POST with a wrong token'] = await post(receiver + wrong, delivery);
      strays['GET with the token'] = await post(receiver + path, '', 'GET');
      strays['POST that is not JSON'] = await post(receiver + path, 'not json');
      strays['POST over 1 MiB'] = await post(receiver + path, Buffer.alloc(1024 * 1024 + 1, ' '));
    };
    const tunnel = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on(
        'end',
        () =>
          void (async () => {
            const path = req.url!;
            paths.push(path);
            // Before the first delivery is passed on (the run waits for it), the requests that are none.
            await (strayed ??= sendStrays(path));
            // Every other one with the prefix stripped, as a proxy that strips its path prefix would.
            const forwarded = paths.length % 2 === 0 ? path.slice('/hooks'.length) : path;
            const r = await request(receiver + forwarded, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
            res.writeHead(r.statusCode, { 'content-type': 'application/json' }).end(await r.body.text());
          })(),
      );
    });
    const tunnelPort = await listen(tunnel, '127.0.0.2');
    const out = join(dir, 'out');
    try {
      const child = spawn(
        'node',
        [
          'bin/loadlab.js',
          'run',
          file,
          '--target',
          srv.base,
          '--api-key',
          KEY,
          '--out',
          out,
          '--webhook-listen',
          `127.0.0.2:${receiverPort}`,
          '--webhook-url',
          `http://127.0.0.2:${tunnelPort}/hooks/`,
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, stderr).toBe(0);

      // What the endpoint was given: the tunnel's URL, its path, /webhook/ and a 128-bit token.
      expect(paths).toHaveLength(20);
      const token = /^\/hooks\/webhook\/([A-Za-z0-9_-]{22})$/.exec(paths[0]!)?.[1];
      expect(token, paths[0]).toBeDefined();
      expect(new Set(paths)).toEqual(new Set([`/hooks/webhook/${token}`]));
      expect(strays).toEqual({
        'POST without the token': 404,
        'POST with a wrong token': 404,
        'GET with the token': 404,
        'POST that is not JSON': 400,
        'POST over 1 MiB': 413,
      });

      const r = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
      expect(r.flows.w!.outcomes).toEqual({ COMPLETED: 10 });
      expect(r.webhooks).toMatchObject({ attempts: 20, delivered: 10, failedAttempts: 10, retries: 10, gaveUp: 0, refused: 3, malformed: 2 });
      expect(stdout).toContain('webhook receiver: 3 refused (404: not a POST to its URL with the token), 2 malformed (400/413)');
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('The receiver turned away 3 request(s)');
      expect(stderr).toContain(
        `loadlab: webhook receiver on 127.0.0.2:${receiverPort}; the endpoint is given http://127.0.0.2:${tunnelPort}/hooks/webhook/<token>`,
      );

      const files = readdirSync(out);
      expect(files).toEqual(expect.arrayContaining(['report.json', 'report.md', 'report.html', 'metrics.om']));
      for (const f of files) expect(readFileSync(join(out, f), 'utf8').includes(token!), f).toBe(false);
      expect((stdout + stderr).includes(token!)).toBe(false);
    } finally {
      tunnel.close();
      srv.stop();
    }
  }, 60_000);

  // Every refusal in one child process (test/helpers/cli-batch.ts); 127.0.0.1:9 answers nothing, and nothing is sent there.
  const NOWHERE = 'http://127.0.0.1:9/v2';
  let port = 0;
  const CASES: [string, string[], RegExp][] = [
    ['--webhook-listen without --target', [file, '--webhook-listen', '127.0.0.2:0'], /^loadlab: --webhook-listen: only with --target/],
    ['--webhook-url without --target', [file, '--webhook-url', 'https://abc.trycloudflare.com'], /^loadlab: --webhook-url: only with --target/],
    [
      'a wildcard address and no --webhook-url',
      [file, '--target', NOWHERE, '--webhook-listen', '0.0.0.0:8099'],
      /^loadlab: --webhook-listen: 0\.0\.0\.0:8099 listens on every address of this machine, .*give --webhook-url too/,
    ],
    ['an IPv6 wildcard', [file, '--target', NOWHERE, '--webhook-listen', '[::]:8099'], /^loadlab: --webhook-listen: \[::\]:8099 listens on every address/],
    [
      'a bad port',
      [file, '--target', NOWHERE, '--webhook-listen', '127.0.0.2:70000'],
      /^loadlab: --webhook-listen: the port must be an integer from 0 to 65535/,
    ],
    ['no port', [file, '--target', NOWHERE, '--webhook-listen', '127.0.0.2'], /^loadlab: --webhook-listen: HOST:PORT/],
    ['not a URL', [file, '--target', NOWHERE, '--webhook-url', 'abc.trycloudflare.com'], /^loadlab: --webhook-url: not a URL/],
    ['not http(s)', [file, '--target', NOWHERE, '--webhook-url', 'ftp://abc.example/'], /^loadlab: --webhook-url: an http:\/\/ or https:\/\/ URL/],
    [
      'credentials',
      [file, '--target', NOWHERE, '--webhook-url', 'https://bob:hunter2@abc.example/'],
      /^loadlab: --webhook-url: no user name or password in the URL .*got https:\/\/abc\.example\/\n$/,
    ],
    ['a query', [file, '--target', NOWHERE, '--webhook-url', 'https://abc.example/?k=1'], /^loadlab: --webhook-url: no query or fragment/],
    [
      'a port in use',
      [file, '--target', NOWHERE, '--webhook-listen', '127.0.0.2:BUSY'],
      /^loadlab: --webhook-listen: 127\.0\.0\.2:\d+ is in use \(another process listens there\)/,
    ],
    [
      'a port in use, lockstep (before its server is asked anything)',
      [file, '--target', NOWHERE, '--lockstep', '--webhook-listen', '127.0.0.2:BUSY'],
      /^loadlab: --webhook-listen: 127\.0\.0\.2:\d+ is in use/,
    ],
    [
      'a scenario without run-webhook',
      [noHooks, '--target', NOWHERE, '--webhook-listen', '127.0.0.2:0'],
      /^loadlab: --webhook-listen: .*polls\.json has no run-webhook flow/,
    ],
  ];
  const result = batched(
    () => CASES.map(([, args]) => ({ args: ['run', ...args.map((a) => a.replace('BUSY', String(port))), '--out', join(dir, 'refused')] })),
    env,
  );

  test.each(CASES.map(([name, , message], i) => [name, i, message] as const))('%s: exit 2 naming the flag', async (_name, i, message) => {
    port = await busyPort;
    const r = result(i);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('hunter2');
    expect(readdirSync(dir)).not.toContain('refused');
  });
});
