/**
 * `loadlab run --health-every`: how often the runner reads the target's `GET /health`
 * (load/health-sampler.ts). Only against a URL without `--lockstep`: the embedded simulator and a
 * lockstep server show the endpoint's state themselves.
 */
import { CliError } from '../exit-codes.js';
import { parseDurationFlag } from '../duration-flag.js';

export const DEFAULT_HEALTH_EVERY_MS = 5000;
const MIN_MS = 100;
const MAX_MS = 3_600_000;

/** The period in ms (0: off) for RunOptions.healthEveryMs; undefined: no sampling (not an HTTP run). */
export function healthEveryOf(a: { 'health-every'?: string; target?: string; lockstep?: boolean }): number | undefined {
  const text = a['health-every'];
  if (text !== undefined) {
    if (!a.target || a.lockstep)
      throw new CliError(
        "--health-every: only with --target, without --lockstep (the embedded simulator and a lockstep server show the endpoint's queue and workers themselves)",
      );
    const ms = parseDurationFlag('--health-every', String(text));
    if (ms !== 0 && !(ms >= MIN_MS && ms <= MAX_MS)) throw new CliError(`--health-every: 0 (off) or from ${MIN_MS}ms to 1h, got ${JSON.stringify(text)}`);
    return ms;
  }
  return a.target && !a.lockstep ? DEFAULT_HEALTH_EVERY_MS : undefined;
}
