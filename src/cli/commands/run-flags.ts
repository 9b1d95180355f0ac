/**
 * `loadlab run`'s flags checked before anything runs: each bad value exits 2 naming the flag and
 * what it takes (yargs turns `--seed abc` into NaN; that must not reach the simulator).
 */
import { displayUrl } from '../../load/targets/target-url.js';
import { CliError } from '../exit-codes.js';
import { shardOf, type ShardArgs, type ShardEnv } from '../shard-option.js';
import { parseStartAt } from '../start-at.js';
import { parseListenAddress } from '../live-metrics/listen-address.js';

export interface RunFlags extends ShardArgs {
  seed?: number;
  'start-at'?: string;
  target?: string;
  lockstep?: boolean;
  connections?: number;
  'max-requests'?: number;
  'metrics-listen'?: string;
}

/** Throws a CliError (exit 2) for the first bad flag. */
export function checkRunFlags(a: RunFlags): void {
  if (a.seed !== undefined && !Number.isSafeInteger(a.seed)) throw new CliError(`--seed: an integer, got ${raw(a.seed)}`);
  const max = a['max-requests'];
  if (max !== undefined && !(Number.isSafeInteger(max) && max >= 1)) throw new CliError(`--max-requests: a whole number of requests >= 1, got ${raw(max)}`);
  if (a.target !== undefined) checkTarget(a.target);
  if (a.lockstep && !a.target) throw new CliError('--lockstep needs --target (a `loadlab serve --clock manual`)');
  checkConnections(a);
  checkMetricsListen(a);
}

/** `--metrics-listen`: a HOST:PORT, and a run in wall time to scrape (a run over --target). */
function checkMetricsListen(a: RunFlags): void {
  const at = a['metrics-listen'];
  if (at === undefined) return;
  parseListenAddress(String(at));
  if (!a.target) {
    throw new CliError(
      '--metrics-listen needs --target: the embedded simulator runs in virtual time (hours in seconds), too fast to scrape; load the metrics.om every run writes into Prometheus instead (docs/metrics.md: promtool tsdb create-blocks-from openmetrics)',
    );
  }
}

function checkTarget(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CliError(`--target: not a URL: ${displayUrl(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new CliError(`--target: an http:// or https:// URL, got ${displayUrl(url)}`);
}

/** `--connections`: the HTTP target's socket pool (lockstep keeps one socket per held request, uncapped). */
function checkConnections(a: RunFlags): void {
  const n = a.connections;
  if (n === undefined) return;
  if (!a.target || a.lockstep) throw new CliError("--connections: only with --target, without --lockstep (it sizes the HTTP target's socket pool)");
  if (!(Number.isInteger(n) && n >= 1 && n <= 10_000)) throw new CliError(`--connections: an integer from 1 to 10000, got ${raw(n)}`);
}

/** `--shard` (or `--shards` / env) and `--start-at`, checked; `shard` is what runScenario takes. */
export interface RunSharding {
  shard?: { index: number; count: number; startAtMs?: number };
  /** Epoch ms the HTTP target waits for before time 0. */
  startAtMs?: number;
  /** To print before the run (a `--start-at` already a little past). */
  warning?: string;
}

/**
 * The shard and start instant of a run against `--target`. The embedded simulator (and a
 * lockstep server, stepped by one runner) is one endpoint's state in one process: neither can be
 * split across processes nor wait for a wall instant in virtual time.
 */
export function runShardingOf(a: RunFlags, env: ShardEnv = process.env, nowMs = Date.now()): RunSharding {
  const shard = shardOf(a, env);
  const refuse = (why: string) => {
    if (shard) throw new CliError(`${shard.from}: ${why}; one endpoint is one state; shard plan sweeps instead (\`loadlab plan --shard\`)`);
    if (a['start-at'] !== undefined) throw new CliError(`--start-at: ${why}; it waits for a wall instant, a virtual-time run has none`);
  };
  if (!a.target) refuse('not on the embedded simulator (only with --target URL)');
  if (a.lockstep) refuse("not with --lockstep (one runner steps the server's virtual clock)");
  const at = a['start-at'] === undefined ? undefined : parseStartAt(a['start-at'], nowMs);
  // --start-at alone: the whole run as shard 0 of 1, so report.json keeps its start instant.
  const whole = shard ?? (at ? { index: 0, count: 1 } : undefined);
  return {
    ...(whole ? { shard: { index: whole.index, count: whole.count, ...(at ? { startAtMs: at.atMs } : {}) } } : {}),
    ...(at ? { startAtMs: at.atMs } : {}),
    ...(at?.warning ? { warning: at.warning } : {}),
  };
}

/** yargs hands a non-number as NaN: say so in words. */
const raw = (n: number): string => (Number.isNaN(n) ? 'something that is not a number' : String(n));
