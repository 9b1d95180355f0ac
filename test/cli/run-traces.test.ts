/**
 * `loadlab run` with OTEL_EXPORTER_OTLP_ENDPOINT, as a spawned CLI exporting to a real OTLP/HTTP
 * receiver on 127.0.0.1: one session span per job session, a child per request (429 re-sends
 * included), virtual time on `--start-time` in-process and wall time against `serve`, the standard
 * OTEL_* variables in effect, nothing secret exported, report.json unchanged by tracing, and a
 * collector that is not there costing a bounded delay, not the run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ATTR, SPAN } from '../../src/contract/metric-names.js';
import { decodeJsonSpans, startOtlpReceiver, type DecodedSpan, type OtlpReceiver } from './otlp-receiver.js';
import { startServe } from './serve-process.js';

const KEY = 'sk-run-traces-key-6d1e0a';
const URL_USER = 'traces-url-user-42';
const URL_PASS = 'traces-url-pass-24';
const START = '2024-05-01T12:00:00Z';
const START_MS = Date.parse(START);
/** A real hang fails here; a loaded 2-core machine stays well inside it. */
const DEADLINE_MS = 50_000;

const dir = mkdtempSync(join(tmpdir(), 'loadlab-traces-'));
let rx: OtlpReceiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
});

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/** The CLI as a child process: async, so that the receiver in this process keeps answering. */
function cli(args: string[], env: Record<string, string>): Promise<Exit> {
  const t0 = performance.now();
  const child = spawn('node', ['bin/loadlab.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`loadlab ${args[0]} did not exit within ${DEADLINE_MS} ms\n${stderr}`));
    }, DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr, wallMs: performance.now() - t0 });
    });
  });
}

/**
 * 6 s of traffic: run-poll sessions (1/s) whose /run meets a rate limit of 2 per 10 s (429s, one
 * re-send each, the second 429 ends the session `rejected`) and runsync sessions (0.5/s).
 */
function scenario(): string {
  const f = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name: 'traces',
      durationMs: 6000,
      drainMs: 60_000,
      // Against serve, a busy 2-core machine may send late; these tests look at spans: only a send 5 s late counts.
      openModel: { lateAfterMs: 5000 },
      endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 400, limits: { operations: { run: { rate: 2 } } } },
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'constant', ratePerSec: 1 },
          client: { behaviour: 'run-poll', on429: { maxAttempts: 2, baseMs: 200, jitter: 0 }, poll: { baseMs: 300, factor: 1, maxMs: 300, jitter: 0 } },
        },
        { name: 'sync', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'runsync' } },
      ],
    }),
  );
  return f;
}

interface Report {
  elapsedMs: number;
  flows: Record<string, { sessions: number; outcomes: Record<string, number> }>;
  operations: Record<string, { requests: number; byStatus: Record<string, number> }>;
  wallClock?: unknown;
}
const readReport = (out: string): Report => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;

const sessionsOf = (spans: DecodedSpan[]) => spans.filter((s) => s.name === SPAN.session);
const requestsOf = (spans: DecodedSpan[]) => spans.filter((s) => s.name === SPAN.clientRequest);

describe('loadlab run exports a span per session and per request', () => {
  /** One traced in-process run, for the two tests that read it. */
  const traced = { file: '', args: [] as string[], exit: undefined as Exit | undefined, rx: undefined as OtlpReceiver | undefined };
  beforeAll(async () => {
    traced.rx = await startOtlpReceiver();
    traced.file = scenario();
    traced.args = ['--start-time', START, '--api-key', KEY];
    traced.exit = await cli(['run', traced.file, '--out', join(dir, 'in-process'), ...traced.args], { OTEL_EXPORTER_OTLP_ENDPOINT: traced.rx.endpoint });
  });
  afterAll(() => traced.rx?.close());

  test('in-process: sessions and requests as report.json counts them, on --start-time, no secret', () => {
    const r = traced.exit!;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const rep = readReport(join(dir, 'in-process'));
    const rx = traced.rx!;
    const spans = decodeJsonSpans(rx.exports);
    const sessions = sessionsOf(spans);
    const requests = requestsOf(spans);

    // One session span per session, ending as report.json says each flow's sessions ended.
    for (const [flow, f] of Object.entries(rep.flows)) {
      const mine = sessions.filter((s) => s.attributes[ATTR.flow] === flow);
      expect(mine, flow).toHaveLength(f.sessions);
      const outcomes: Record<string, number> = {};
      for (const s of mine) outcomes[String(s.attributes[ATTR.sessionOutcome])] = (outcomes[String(s.attributes[ATTR.sessionOutcome])] ?? 0) + 1;
      expect(outcomes, flow).toEqual(f.outcomes);
    }
    expect(new Set(sessions.map((s) => s.traceId)).size).toBe(sessions.length);
    expect(sessions.every((s) => s.parentSpanId === '' && s.attributes[ATTR.endpoint] === 'ep')).toBe(true);
    // The rejected sessions are errors; completed ones are not.
    for (const s of sessions) expect(s.statusCode, String(s.attributes[ATTR.sessionOutcome])).toBe(s.attributes[ATTR.sessionOutcome] === 'COMPLETED' ? 0 : 2);
    expect(sessions.some((s) => s.attributes[ATTR.sessionOutcome] === 'rejected')).toBe(true);

    // A child per request sent, every 429 re-send its own, each under its session's span.
    const byId = new Map(sessions.map((s) => [s.spanId, s]));
    for (const q of requests) {
      const parent = byId.get(q.parentSpanId);
      expect(parent, `${q.attributes[ATTR.operation]} has a session`).toBeDefined();
      expect(q.traceId).toBe(parent!.traceId);
      expect(q.kind).toBe(3); // CLIENT
      expect(q.startMs).toBeGreaterThanOrEqual(parent!.startMs);
    }
    for (const [op, o] of Object.entries(rep.operations)) {
      const mine = requests.filter((q) => q.attributes[ATTR.operation] === op);
      expect(mine, op).toHaveLength(o.requests);
      const byStatus: Record<string, number> = {};
      for (const q of mine) byStatus[String(q.attributes[ATTR.statusCode])] = (byStatus[String(q.attributes[ATTR.statusCode])] ?? 0) + 1;
      expect(byStatus, op).toEqual(o.byStatus);
    }
    const limited = requests.filter((q) => q.attributes[ATTR.statusCode] === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((q) => q.attributes[ATTR.limitCause] === 'rate' && q.attributes[ATTR.operation] === 'run' && q.statusCode === 2)).toBe(true);
    expect(requests.filter((q) => q.attributes[ATTR.statusCode] !== 429).every((q) => !(ATTR.limitCause in q.attributes))).toBe(true);
    // The job id reaches the session and its status polls.
    const polled = requests.filter((q) => q.attributes[ATTR.operation] === 'status');
    expect(polled.length).toBeGreaterThan(0);
    for (const q of polled) expect(q.attributes[ATTR.jobId]).toBe(byId.get(q.parentSpanId)!.attributes[ATTR.jobId]);

    // Virtual time on the run's start instant: the first session arrives at 0, everything ends by elapsedMs.
    expect(Math.min(...sessions.map((s) => s.startMs))).toBe(START_MS);
    for (const s of [...sessions, ...requests]) {
      expect(s.startMs).toBeGreaterThanOrEqual(START_MS);
      expect(s.endMs).toBeLessThanOrEqual(START_MS + rep.elapsedMs);
      expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
    }
    expect(sessions.every((s) => s.serviceName === 'loadlab')).toBe(true);
    for (const e of rx.exports) {
      expect(e.body.includes(KEY)).toBe(false);
      expect(e.body.includes('process.command')).toBe(false);
    }
  });

  test('report.json is the same with tracing on and off', async () => {
    // On: the traced run above; off: the same command line without an endpoint.
    const off = await cli(['run', traced.file, '--out', join(dir, 'off'), ...traced.args], {});
    expect([traced.exit!.code, off.code]).toEqual([0, 0]);
    expect(sessionsOf(decodeJsonSpans(traced.rx!.exports)).length).toBeGreaterThan(0);
    const bytes = (out: string) => readFileSync(join(dir, out, 'report.json'), 'utf8').replace(/"wallClock": \{[^}]*\}/, '');
    expect(bytes('in-process')).toBe(bytes('off'));
    expect(readFileSync(join(dir, 'in-process', 'metrics.om'), 'utf8')).toBe(readFileSync(join(dir, 'off', 'metrics.om'), 'utf8'));
  });

  // The run command itself (main.ts also registers `serve`, whose module loads the API).
  test('without an endpoint, `run` loads no OpenTelemetry module at all', async () => {
    const script = [
      "import { createRequire } from 'node:module';",
      "const { runCommand } = await import('./dist/src/cli/commands/run.js');",
      `const code = await runCommand({ scenario: ${JSON.stringify(scenario())}, out: ${JSON.stringify(join(dir, 'untraced'))} });`,
      "const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@opentelemetry'));",
      'process.stdout.write(JSON.stringify({ code, loaded }));',
    ].join('\n');
    const r = await new Promise<string>((resolve, reject) => {
      const child = spawn('node', ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CI: 'true' } });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', () => resolve(out));
      child.on('error', reject);
    });
    expect(JSON.parse(r.slice(r.lastIndexOf('{"code"')))).toEqual({ code: 0, loaded: [] });
  });

  test('OTEL_* variables: sampler ratio 0 exports no session; headers and service name reach the receiver', async () => {
    rx = await startOtlpReceiver();
    const f = scenario();
    const none = await cli(['run', f, '--out', join(dir, 'ratio0')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint,
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    expect(none.code, none.stderr).toBe(0);
    expect(decodeJsonSpans(rx.exports)).toEqual([]);

    const all = await cli(['run', f, '--out', join(dir, 'headers')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '1',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-loadlab-test=traces-header-1',
      OTEL_SERVICE_NAME: 'my-runner',
    });
    expect(all.code, all.stderr).toBe(0);
    expect(rx.exports.length).toBeGreaterThan(0);
    expect(rx.exports.every((e) => e.headers['x-loadlab-test'] === 'traces-header-1')).toBe(true);
    const spans = decodeJsonSpans(rx.exports);
    expect(sessionsOf(spans).length).toBe(Object.values(readReport(join(dir, 'headers')).flows).reduce((n, x) => n + x.sessions, 0));
    expect(spans.every((s) => s.serviceName === 'my-runner')).toBe(true);
  });

  test('an unknown sampler is refused: exit 2 naming the variable', async () => {
    const r = await cli(['run', scenario(), '--out', join(dir, 'bad')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_TRACES_SAMPLER: 'sometimes',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('OTEL_TRACES_SAMPLER: "sometimes" is not a sampler');
    const arg = await cli(['run', scenario(), '--out', join(dir, 'bad')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '2',
    });
    expect(arg.code).toBe(2);
    expect(arg.stderr).toContain('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1');
  });

  test('a collector on a closed port: the run exits 0 within the export timeout, with a warning', async () => {
    const port = await closedPort();
    const r = await cli(['run', scenario(), '--out', join(dir, 'closed')], { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^loadlab: warning: traces: \d+ spans not exported: export failed \(ECONNREFUSED\)\n$/);
    expect(readReport(join(dir, 'closed')).flows.poll!.sessions).toBe(6);
    // The default export timeout is 10 s; retries stop inside it.
    expect(r.wallMs).toBeLessThan(40_000);
  });

  test('against serve: wall-time spans within the run, no key and no URL credentials', async () => {
    rx = await startOtlpReceiver();
    const srv = await startServe(['--api-key', KEY]);
    try {
      const out = join(dir, 'http');
      const target = srv.base.replace('http://', `http://${URL_USER}:${URL_PASS}@`);
      const before = Date.now();
      const r = await cli(['run', scenario(), '--target', target, '--api-key', KEY, '--out', out], { OTEL_EXPORTER_OTLP_ENDPOINT: rx.endpoint });
      const after = Date.now();
      expect(r.code, r.stderr).toBe(0);
      const rep = readReport(out);
      const spans = decodeJsonSpans(rx.exports);
      const sessions = sessionsOf(spans);
      expect(sessions).toHaveLength(Object.values(rep.flows).reduce((n, f) => n + f.sessions, 0));
      expect(requestsOf(spans)).toHaveLength(Object.values(rep.operations).reduce((n, o) => n + o.requests, 0));
      for (const s of spans) {
        expect(s.startMs).toBeGreaterThanOrEqual(before);
        expect(s.endMs).toBeLessThanOrEqual(after);
      }
      // Wall time: the 6 s of arrivals are about 1 s apart (a constant rate), not squeezed into an instant.
      const starts = sessions
        .filter((s) => s.attributes[ATTR.flow] === 'poll')
        .map((s) => s.startMs)
        .sort((a, b) => a - b);
      expect(starts.at(-1)! - starts[0]!).toBeGreaterThan(4000);
      for (const e of rx.exports) for (const secret of [KEY, URL_USER, URL_PASS]) expect(e.body.includes(secret), secret).toBe(false);
    } finally {
      srv.stop();
    }
  });
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
