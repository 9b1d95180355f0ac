/**
 * A multi-turn flow's session figures over shards (`flows.*.turns`): turns started add, and the
 * turns-per-session and session-time histograms add exactly (each session ran in one shard, its
 * turns all there).
 */
import { mergeEncoded } from '../histogram.js';
import type { FlowTurnStats } from '../run-result.js';

/** One flow's turns sections of the shards that have one; undefined: none has. */
export function mergeFlowTurns(list: readonly FlowTurnStats[]): FlowTurnStats | undefined {
  if (!list.length) return undefined;
  return {
    total: list.reduce((n, t) => n + t.total, 0),
    perSession: mergeEncoded(list.map((t) => t.perSession)),
    sessionMs: mergeEncoded(list.map((t) => t.sessionMs)),
  };
}
