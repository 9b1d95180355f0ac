/**
 * The series of `RunResult.windows.endpoint` (EndpointWindows) in a fixed order, for the
 * recorders that fill them: a target that integrates the simulator's state and the sampler of
 * `/health` answers.
 */
import type { EndpointWindows } from '../../report/run-result.js';
import { WORKER_STATES, type WorkerState } from '../../contract/sim-events.js';

export { WORKER_STATES };
/** queueLength, jobsInSystem, then WORKER_STATES (the order of sim/occupancy.ts OCCUPANCY_SERIES). */
export const ENDPOINT_SERIES = 2 + WORKER_STATES.length;

/** One EndpointWindows from series columns in ENDPOINT_SERIES order. */
export function endpointWindows(source: EndpointWindows['source'], cols: number[][]): EndpointWindows {
  const workers = {} as Record<WorkerState, number[]>;
  WORKER_STATES.forEach((s, k) => (workers[s] = cols[2 + k]!));
  return { source, queueLength: cols[0]!, jobsInSystem: cols[1]!, workers };
}
