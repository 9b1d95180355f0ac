/**
 * What a merged run keeps of the endpoint as one shard saw it: the runner's `/health` sampling
 * (`healthSampling`) and the raw observations `loadlab calibrate` fits (`observed`). Against a
 * URL only shard 0 reads `/health` (`loadlab run --shard`), so these are not sums: both come from
 * one input, the first by shard indices that sampled `/health` (else the first that has
 * observations), with their times moved onto the merged axis by that input's shift. The choice
 * and the shifts do not depend on how the inputs are grouped, so the merge stays associative.
 */
import type { HealthSampling, ObservedEndpoint, RunResult } from '../run-result.js';

/** Column names holding run-clock instants (ms since the run's time 0), per observation table. */
const INSTANTS = {
  health: ['atMs'],
  // A load-balancing endpoint's worker table starts with its first request's send.
  workers: ['firstStartMs', 'firstSentMs', 'lastEndMs'],
  streams: ['sentMs'],
  balancer: ['sentMs'],
} as const;

/** `list` in shard order with each input's shift in ms. */
export function mergeSampling(list: readonly { r: RunResult; offsetMs: number }[]): { healthSampling?: HealthSampling; observed?: ObservedEndpoint } {
  const pick = list.find(({ r }) => r.healthSampling) ?? list.find(({ r }) => r.observed);
  if (!pick) return {};
  const { r, offsetMs } = pick;
  return {
    ...(r.healthSampling ? { healthSampling: r.healthSampling } : {}),
    ...(r.observed ? { observed: shifted(r.observed, offsetMs) } : {}),
  };
}

function shifted(o: ObservedEndpoint, offsetMs: number): ObservedEndpoint {
  if (offsetMs === 0) return o;
  const table = <T extends { columns: string[]; rows: number[][] }>(t: T, names: readonly string[]): T => {
    const cols = names.map((n) => t.columns.indexOf(n)).filter((c) => c >= 0);
    return { ...t, rows: t.rows.map((row) => row.map((v, c) => (cols.includes(c) ? round(v + offsetMs) : v))) };
  };
  return {
    ...o,
    workers: table(o.workers, INSTANTS.workers),
    health: table(o.health, INSTANTS.health),
    ...(o.streams ? { streams: table(o.streams, INSTANTS.streams) } : {}),
    ...(o.balancer ? { balancer: table(o.balancer, INSTANTS.balancer) } : {}),
  };
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;
