/** `--workers-max FROM..TO` (or a single N), or the scenario's `plan.workersMax`: the workersMax values a plan sweeps, in order. */
import { parseIntRange } from '../lib/int-range.js';

export const DEFAULT_WORKERS_RANGE = '1..20';
/** The most points one range may have (each is `--seeds` runs). */
export const MAX_POINTS = 1000;

/** The values FROM..TO, or what is wrong with the text. */
export function parseWorkersRange(text: string): number[] | string {
  return parseIntRange(text, 'workersMax', 1, MAX_POINTS);
}
