/**
 * A real Prometheus for the dashboard tests (Debian/Ubuntu: apt-get install -y prometheus, which
 * brings `prometheus` and `promtool`; .ci/run installs it). It listens on 127.0.0.1 only, on a free
 * port, over its own temporary TSDB directory, and serves either backfilled blocks (`promtool tsdb
 * create-blocks-from openmetrics`) or what it scrapes. Without the binaries a test skips with
 * PROMETHEUS_MISSING, except under CI=true, where their absence fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const PROMETHEUS_MISSING = 'prometheus and promtool are not on PATH (Debian/Ubuntu: apt-get install -y prometheus; .ci/run installs it)';

/** Readiness: /-/ready polled every READY_POLL_MS, at most READY_ATTEMPTS times (60 s in all, for a loaded machine). */
const READY_POLL_MS = 250;
const READY_ATTEMPTS = 240;
/** After SIGTERM, how long Prometheus has to exit before SIGKILL. */
const STOP_GRACE_MS = 10_000;

function onPath(name: string): boolean {
  return spawnSync(name, ['--version'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
}

/** True when both binaries run; false (then skip) otherwise; throws under CI=true when they do not. */
export function prometheusPresent(): boolean {
  const present = onPath('prometheus') && onPath('promtool');
  if (!present && process.env.CI === 'true') throw new Error(`${PROMETHEUS_MISSING}; CI=true needs them`);
  return present;
}

/** `promtool tsdb create-blocks-from openmetrics FILE DIR`: adds the file's blocks to DIR (several files may share one DIR). */
export function createBlocks(omFile: string, tsdbDir: string): void {
  const r = spawnSync('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', omFile, tsdbDir], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`promtool create-blocks-from openmetrics ${omFile} failed (${r.status ?? r.signal}): ${r.stdout}${r.stderr}`);
}

/** A free TCP port on 127.0.0.1 (closed again at once; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** One scrape job of the live configuration: `targets` are host:port, `/metrics` over HTTP. */
export interface ScrapeJob {
  job: string;
  targets: string[];
}

export interface PrometheusOptions {
  /** A TSDB directory to serve (backfilled blocks); default: a new empty one. Never removed by stop(). */
  tsdbDir?: string;
  /** Scrape jobs (live); default none. */
  scrape?: ScrapeJob[];
  /** Scrape and evaluation interval, e.g. "1s" (default "1s"). */
  scrapeInterval?: string;
}

/** A matrix or vector series as the HTTP API returns it. */
export interface PromSeries {
  metric: Record<string, string>;
  values?: [number, string][];
  value?: [number, string];
}

export interface Prometheus {
  url: string;
  /** Instant query at `timeS` (Unix seconds); throws on an API error, naming the expression. */
  query(expr: string, timeS: number): Promise<PromSeries[]>;
  /** Range query over [startS, endS] with `stepS`; throws on an API error, naming the expression. */
  queryRange(expr: string, startS: number, endS: number, stepS: number): Promise<PromSeries[]>;
  /** `/api/v1/label/<label>/values` over [startS, endS], restricted to series matching `match` (a selector) when given. */
  labelValues(label: string, match: string | undefined, startS: number, endS: number): Promise<string[]>;
  /** SIGTERM, then SIGKILL after a bound; removes the temporary directories. Safe to call twice. */
  stop(): Promise<void>;
}

function configYaml(o: PrometheusOptions): string {
  const interval = o.scrapeInterval ?? '1s';
  const jobs = (o.scrape ?? []).map(
    (j) => `  - job_name: ${JSON.stringify(j.job)}\n    static_configs:\n      - targets: [${j.targets.map((t) => JSON.stringify(t)).join(', ')}]\n`,
  );
  return `global:\n  scrape_interval: ${interval}\n  evaluation_interval: ${interval}\n  scrape_timeout: ${interval}\nscrape_configs:\n${jobs.join('') || '  []\n'}`;
}

async function api(base: string, path: string, params: Record<string, string | string[]>, what: string): Promise<any> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: q,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await res.json().catch(() => ({ status: 'error', error: `HTTP ${res.status}, not JSON` }))) as any;
  if (body.status !== 'success') throw new Error(`Prometheus ${path} ${what}: ${body.errorType ?? ''} ${body.error ?? JSON.stringify(body)}`);
  return body.data;
}

function exited(p: ChildProcess): boolean {
  return p.exitCode !== null || p.signalCode !== null;
}

async function stopProcess(p: ChildProcess): Promise<void> {
  if (exited(p)) return;
  const gone = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  p.kill('SIGTERM');
  const killed = sleep(STOP_GRACE_MS).then(() => {
    if (!exited(p)) p.kill('SIGKILL');
  });
  await Promise.race([gone, killed]);
  await gone;
}

/** Polls /-/ready; rejects with the log's tail when Prometheus exits or is not ready in time. */
async function waitReady(url: string, p: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < READY_ATTEMPTS; i++) {
    if (exited(p)) throw new Error(`prometheus exited (${p.exitCode ?? p.signalCode}) before ready:\n${log().slice(-3000)}`);
    const ok = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(READY_POLL_MS);
  }
  throw new Error(`prometheus not ready after ${(READY_ATTEMPTS * READY_POLL_MS) / 1000} s:\n${log().slice(-3000)}`);
}

/**
 * Starts Prometheus on 127.0.0.1 and resolves once /-/ready answers 200. Retention is 100 years:
 * backfilled timestamps lie in the past and must not be dropped at start. The caller must call
 * stop() (in afterAll), also when a test failed.
 */
export async function startPrometheus(o: PrometheusOptions = {}): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-prometheus-'));
  const tsdb = o.tsdbDir ?? join(dir, 'tsdb');
  mkdirSync(tsdb, { recursive: true });
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, configYaml(o));
  let lastError: unknown;
  // A port picked free may be taken before Prometheus binds it: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const p = spawn(
      'prometheus',
      [
        `--config.file=${config}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--storage.tsdb.path=${tsdb}`,
        '--storage.tsdb.retention.time=100y',
        `--web.console.templates=${dir}`,
        `--web.console.libraries=${dir}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const keep = (d: Buffer) => {
      out = (out + d.toString()).slice(-20_000);
    };
    p.stdout!.on('data', keep);
    p.stderr!.on('data', keep);
    p.on('error', (e) => {
      out += `\nspawn error: ${e.message}`;
    });
    try {
      await waitReady(url, p, () => out);
    } catch (e) {
      lastError = e;
      await stopProcess(p);
      if (/address already in use/.test(out)) continue;
      break;
    }
    let stopped = false;
    return {
      url,
      query: async (expr, timeS) => (await api(url, '/api/v1/query', { query: expr, time: String(timeS) }, expr)).result,
      queryRange: async (expr, startS, endS, stepS) =>
        (await api(url, '/api/v1/query_range', { query: expr, start: String(startS), end: String(endS), step: String(stepS) }, expr)).result,
      labelValues: async (label, match, startS, endS) => {
        const q = new URLSearchParams({ start: String(startS), end: String(endS) });
        if (match) q.append('match[]', match);
        const res = await fetch(`${url}/api/v1/label/${encodeURIComponent(label)}/values?${q}`, { signal: AbortSignal.timeout(60_000) });
        const body = (await res.json()) as any;
        if (body.status !== 'success') throw new Error(`Prometheus label ${label} values (match ${match}): ${body.error}`);
        return body.data as string[];
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await stopProcess(p);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
