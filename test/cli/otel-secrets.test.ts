/**
 * What reaches an OpenTelemetry collector: `serve` and `run` as spawned CLI processes export to a
 * real OTLP/HTTP receiver on 127.0.0.1, and every export body is free of the API keys, the
 * s3Config values and the credentials of a target URL. Bodies are scanned as raw bytes whatever
 * their encoding (strings sit verbatim in both OTLP JSON and protobuf) and JSON ones are decoded
 * too. loadlab's exporter (exporter-trace-otlp-http) always sends JSON: with the protocol variable
 * unset or set to http/protobuf, the body is still JSON, so the cases below all decode.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { decodeJsonExport, startOtlpReceiver, type OtlpExport, type OtlpReceiver } from './otlp-receiver.js';

const KEY = 'sk-otel-flag-key-3f9a1c';
const ENV_KEY = 'sk-otel-env-key-8b2d4e';
const S3_ID = 'AKIA-OTEL-ID-55c1';
const S3_SECRET = 's3-otel-secret-77ab';
const URL_USER = 'otel-url-user-19';
const URL_PASS = 'otel-url-pass-91';
const SECRETS = [KEY, ENV_KEY, S3_ID, S3_SECRET, URL_USER, URL_PASS];
/** A real hang fails here; a loaded 2-core machine stays well inside it. */
const DEADLINE_MS = 45_000;

const dir = mkdtempSync(join(tmpdir(), 'loadlab-otel-'));
let rx: OtlpReceiver | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rx?.close();
  rx = undefined;
});

function cli(args: string[], env: Record<string, string>): { child: ChildProcess; exited: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn('node', ['bin/loadlab.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', ...env } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`loadlab ${args[0]} did not exit within ${DEADLINE_MS} ms\n${stderr}`)), DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, exited };
}

async function startServe(env: Record<string, string>): Promise<{ base: string; stop: () => Promise<{ code: number | null }> }> {
  const { child, exited } = cli(['serve', '--port', '0', '--api-key', KEY], env);
  const base = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('serve did not print its URL')), DEADLINE_MS);
    child.stdout!.on('data', (d: Buffer) => {
      const m = /http:\/\/\S+\/v2/.exec(d.toString());
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
    exited.then((r) => reject(new Error(`serve exited with ${r.code}: ${r.stderr}`)), reject);
  });
  // SIGTERM: serve shuts the SDK down, which flushes the batch still queued.
  return { base, stop: () => (child.kill('SIGTERM'), exited) };
}

function otelEnv(receiver: OtlpReceiver, extra: Record<string, string> = {}): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, LOADLAB_API_KEY: ENV_KEY, ...extra };
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const r = await request(`${base}/ep${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? JSON.parse(text) : undefined };
}

/** Every export, byte for byte: no secret, in any form the exporter could have written it. */
function expectNoSecrets(exports: OtlpExport[]): void {
  for (const [i, e] of exports.entries()) {
    for (const s of SECRETS) expect(e.body.includes(s), `export ${i} (${e.contentType}) holds ${s}`).toBe(false);
    expect(e.body.includes('process.command'), `export ${i} has a command-line attribute`).toBe(false);
  }
}

const S3 = { accessId: S3_ID, accessSecret: S3_SECRET, bucketName: 'b', endpointUrl: `https://${URL_USER}:${URL_PASS}@s3.example.com` };

describe('serve exports spans with no secret in them', () => {
  test.each([
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_NODE_RESOURCE_DETECTORS: 'all' }],
    [{}],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }],
  ] as [Record<string, string>][])('%j', async (extra) => {
    rx = await startOtlpReceiver();
    const env = otelEnv(rx, extra);
    const srv = await startServe(env);
    const run = await call(srv.base, 'POST', '/run', { input: { sim: { durationMs: 0 } }, s3Config: S3 });
    expect(run.status).toBe(200);
    expect((await call(srv.base, 'POST', '/runsync', { input: { x: 1 }, s3Config: S3 })).json).toMatchObject({ status: 'COMPLETED' });
    expect((await call(srv.base, 'GET', `/status/${run.json.id}`)).status).toBe(200);
    expect((await srv.stop()).code).toBe(0);

    expect(rx.exports.length).toBeGreaterThan(0);
    expect(rx.exports.every((e) => e.path === '/v1/traces')).toBe(true);
    expectNoSecrets(rx.exports);
    // The exports are real: they carry the spans and the runtime's own description.
    const all = Buffer.concat(rx.exports.map((e) => e.body));
    for (const s of ['loadlab.job', 'loadlab.http.request', 'loadlab-serve', 'process.pid', 'process.runtime.version']) expect(all.includes(s), s).toBe(true);
    const decoded = rx.exports.filter((e) => e.contentType.includes('json')).map((e) => decodeJsonExport(e.body));
    if (decoded.length === 0) return; // a protobuf body: the byte scan above is what holds
    const resources = decoded.flatMap((d) => d.resources);
    const spans = decoded.flatMap((d) => d.spans);
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) {
      expect(r['service.name']).toEqual({ stringValue: 'loadlab-serve' });
      expect(
        Object.keys(r)
          .filter((k) => k.startsWith('process.'))
          .sort(),
      ).toEqual([
        'process.executable.name',
        'process.executable.path',
        'process.owner',
        'process.pid',
        'process.runtime.description',
        'process.runtime.name',
        'process.runtime.version',
      ]);
      if (extra.OTEL_NODE_RESOURCE_DETECTORS === 'all') expect(r).toHaveProperty(['service.instance.id']);
    }
    expect(new Set(spans.map((s) => s.name))).toEqual(new Set(['loadlab.job', 'loadlab.http.request']));
    expect(spans.filter((s) => s.name === 'loadlab.http.request').map((s) => s.attributes['loadlab.http.route'])).toEqual([
      { stringValue: 'run' },
      { stringValue: 'runsync' },
      { stringValue: 'status' },
    ]);
  });
});

describe('run against serve exports no key, s3Config or target credentials', () => {
  test('run --api-key --target http://user:pass@127.0.0.1…: every export of both processes is clean', async () => {
    rx = await startOtlpReceiver();
    const env = otelEnv(rx, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const srv = await startServe(env);
    const f = join(dir, 'scenario.json');
    writeFileSync(
      f,
      JSON.stringify({
        name: 'otel-secrets',
        durationMs: 1000,
        drainMs: 10_000,
        endpoint: { id: 'ep' },
        // Not a latency test: a busy test machine's late timers must not make the run INVALID.
        openModel: { lateAfterMs: 1000 },
        traffic: [
          {
            name: 'poll',
            arrival: { process: 'constant', ratePerSec: 5 },
            client: {
              behaviour: 'run-poll',
              poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 },
              payload: { input: { s3Config: S3 }, sim: { durationMs: 20 } },
            },
          },
        ],
      }),
    );
    const target = srv.base.replace('http://', `http://${URL_USER}:${URL_PASS}@`);
    const r = await cli(['run', f, '--target', target, '--api-key', KEY, '--out', join(dir, 'out')], env).exited;
    expect(r.code, r.stderr).toBe(0);
    expect((await srv.stop()).code).toBe(0);

    // Both processes export here, and every byte of both is scanned.
    expect(rx.exports.length).toBeGreaterThan(0);
    expectNoSecrets(rx.exports);
    const decoded = rx.exports.map((e) => decodeJsonExport(e.body));
    // The run's own spans are among them: a session per arrival.
    expect(decoded.flatMap((d) => d.spans).filter((s) => s.name === 'loadlab.client.session')).toHaveLength(5);
    // The run's requests reached serve and were traced there (5 /run, each polled to COMPLETED).
    const routes = decoded
      .flatMap((d) => d.spans)
      .filter((s) => s.name === 'loadlab.http.request')
      .map((s) => s.attributes['loadlab.http.route']);
    expect(routes.filter((x) => (x as { stringValue: string }).stringValue === 'run')).toHaveLength(5);
  });
});
