/**
 * `loadlab run`'s flags checked before anything runs: each bad value exits 2 naming the flag and
 * what it takes (yargs turns `--seed abc` into NaN; that must not reach the simulator).
 */
import { displayUrl } from '../../load/targets/target-url.js';
import { CliError } from '../exit-codes.js';
import { parseListenAddress } from '../live-metrics/listen-address.js';

export interface RunFlags {
  seed?: number;
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
    throw new CliError('--metrics-listen needs --target: the embedded simulator runs in virtual time (hours in seconds), too fast to scrape; load the metrics.om every run writes into Prometheus instead (README "Metrics": promtool tsdb create-blocks-from openmetrics)');
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
  if (!a.target || a.lockstep) throw new CliError('--connections: only with --target, without --lockstep (it sizes the HTTP target\'s socket pool)');
  if (!(Number.isInteger(n) && n >= 1 && n <= 10_000)) throw new CliError(`--connections: an integer from 1 to 10000, got ${raw(n)}`);
}

/** yargs hands a non-number as NaN: say so in words. */
const raw = (n: number): string => (Number.isNaN(n) ? 'something that is not a number' : String(n));
