/**
 * A plan whose grid sweeps `type` (queue, load-balancer): per kind of endpoint, its cheapest point
 * meeting every SLO (the recommendation's rule, within the kind), with what a user choosing
 * between the kinds compares: cost, TTFT p95, failures. plan.md's section "Queue or
 * load-balancing endpoint" and `loadlab plan`'s stdout show it. Pure: read from plan.json alone.
 */
import { describeKnobs } from './grid.js';
import { cheapestMeeting, type PlanResult, type PlanRow } from './plan-result.js';

export interface KindChoice {
  type: string;
  /** The kind's cheapest point meeting every SLO on every seed; null: none in the range. */
  best: PlanRow | null;
  /** Points of the kind run, and how many of them met every SLO. */
  points: number;
  meeting: number;
}

/** Per kind the grid sweeps, in the grid's order; null when it sweeps no `type`. */
export function kindChoices(p: PlanResult): KindChoice[] | null {
  const types = [...new Set((p.sweep.grid ?? []).map((l) => l.knobs.type).filter((t): t is string => typeof t === 'string'))];
  if (!types.length) return null;
  return types.map((type) => {
    const rows = p.rows.filter((r) => r.knobs?.type === type);
    return { type, best: cheapestMeeting(rows), points: rows.length, meeting: rows.filter((r) => r.meetsAll).length };
  });
}

/** A point's grid knobs other than `type`, as plan.md writes them ('' when none). */
export const otherKnobs = (row: PlanRow): string => describeKnobs(Object.fromEntries(Object.entries(row.knobs ?? {}).filter(([n]) => n !== 'type')));
