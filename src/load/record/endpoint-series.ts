/**
 * The series of `RunResult.windows.endpoint` (EndpointWindows) in a fixed order, for the
 * recorders that fill them: a target that integrates the simulator's state and the sampler of
 * `/health` answers.
 */
import type { EndpointWindows, EngineWindows, GpuWindows } from '../../report/run-result.js';
import { averagesOf, round3 } from '../../lib/time-averages.js';
import { WORKER_STATES, type WorkerState } from '../../contract/sim-events.js';

export { WORKER_STATES };
/** queueLength, jobsInSystem, then WORKER_STATES (the order of sim/occupancy.ts OCCUPANCY_SERIES). */
export const ENDPOINT_SERIES = 2 + WORKER_STATES.length;

/** One EndpointWindows from series columns in ENDPOINT_SERIES order. */
export function endpointWindows(source: EndpointWindows['source'], cols: number[][], engine?: EngineWindows, byGpu?: GpuWindows[]): EndpointWindows {
  return { source, queueLength: cols[0]!, jobsInSystem: cols[1]!, workers: byState(cols, 2), ...(engine ? { engine } : {}), ...(byGpu ? { byGpu } : {}) };
}

/** Workers by state from columns in WORKER_STATES order, from `at` on. */
export const byState = (cols: number[][], at: number): Record<WorkerState, number[]> => {
  const workers = {} as Record<WorkerState, number[]>;
  WORKER_STATES.forEach((s, k) => (workers[s] = cols[at + k]!));
  return workers;
};

/**
 * The workers on each GPU type as the simulator keeps them (sim/gpu-occupancy.ts `GpuAreas`, also
 * the `gpus` of `POST /_sim/occupancy`): per type, value × ms per state (WORKER_STATES order) per window.
 */
export interface GpuAreas {
  gpu: string;
  areas: number[][];
}

/** GpuWindows of `windowMs` (a multiple of the areas' window, `areaWindowMs`), windows 0 to `n - 1`, the run having ended at `endMs`. */
export function gpuWindows(list: readonly GpuAreas[], windowMs: number, endMs: number, n: number, areaWindowMs = windowMs): GpuWindows[] {
  return list.map((g) => ({ gpu: g.gpu, workers: byState(averagesOf(g.areas, windowMs, endMs, n, areaWindowMs), 0) }));
}

/**
 * The engines' windows as the simulator keeps them (sim/engine-occupancy.ts `EngineAreas`, also
 * the `engine` of `POST /_sim/occupancy`): value × ms of running, waiting and (with a modelled
 * cache) KV cache usage, the most usage, the preemptions and (with prefix caching) the prefix
 * cache's queries and hits per window of `windowMs`.
 */
export interface EngineAreas {
  windowMs: number;
  areas: number[][];
  usageMax?: number[];
  preemptions: number[];
  prefixQueries?: number[];
  prefixHits?: number[];
}

/** EngineWindows of `windowMs` (a multiple of the areas' window), windows 0 to `n - 1`, the run having ended at `endMs`. */
export function engineWindows(a: EngineAreas, windowMs: number, endMs: number, n: number): EngineWindows {
  const [running, waiting, usage] = averagesOf(a.areas, windowMs, endMs, n, a.windowMs);
  const m = windowMs / a.windowMs;
  const fold = (col: readonly number[], start: number, add: (x: number, y: number) => number) =>
    Array.from({ length: n }, (_, i) => {
      let v = start;
      for (let k = i * m; k < (i + 1) * m; k++) v = add(v, col[k] ?? start);
      return v;
    });
  return {
    running: running!,
    waiting: waiting!,
    ...(usage && a.usageMax ? { kvCacheUsage: usage, kvCacheUsageMax: fold(a.usageMax, -1, Math.max).map(round3) } : {}),
    preemptions: fold(a.preemptions, 0, (x, y) => x + y),
    ...(a.prefixQueries && a.prefixHits
      ? { prefixCacheQueries: fold(a.prefixQueries, 0, (x, y) => x + y), prefixCacheHits: fold(a.prefixHits, 0, (x, y) => x + y) }
      : {}),
  };
}
