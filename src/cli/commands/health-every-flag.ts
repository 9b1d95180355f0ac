/**
 * `loadlab run --health-every`: how often the runner reads the target's `GET /health`
 * (load/health-sampler.ts). Only against a URL without `--lockstep`: the embedded simulator and a
 * lockstep server show the endpoint's state themselves; of a sharded run, only shard 0.
 */
import { CliError } from '../exit-codes.js';
import { parseDurationFlag } from '../duration-flag.js';

export const DEFAULT_HEALTH_EVERY_MS = 5000;
const MIN_MS = 100;
const MAX_MS = 3_600_000;

/**
 * The period in ms (0: off) for RunOptions.healthEveryMs; undefined: no sampling (not an HTTP run,
 * or a shard other than shard 0). Of a sharded run only shard 0 reads `/health`, with or without
 * the flag: the shards send to one endpoint, whose state one reader sees for all (`loadlab merge`
 * keeps that shard's series). The flag is still checked on every shard.
 */
export function healthEveryOf(a: { 'health-every'?: string; target?: string; lockstep?: boolean }, shard?: { index: number }): number | undefined {
  const text = a['health-every'];
  let ms = a.target && !a.lockstep ? DEFAULT_HEALTH_EVERY_MS : undefined;
  if (text !== undefined) {
    if (!a.target || a.lockstep)
      throw new CliError(
        "--health-every: only with --target, without --lockstep (the embedded simulator and a lockstep server show the endpoint's queue and workers themselves)",
      );
    ms = parseDurationFlag('--health-every', String(text));
    if (ms !== 0 && !(ms >= MIN_MS && ms <= MAX_MS)) throw new CliError(`--health-every: 0 (off) or from ${MIN_MS}ms to 1h, got ${JSON.stringify(text)}`);
  }
  return shard && shard.index !== 0 ? undefined : ms;
}
