/**
 * The endpoint over time (windows.endpoint) from several shards. Every shard sampled the SAME
 * endpoint, so the values are not added: each merged window takes the value of the input with
 * the lowest shard indices that has one there (-1: none has). All series of a window come from
 * that one input, so they stay consistent with each other (queue ≤ jobs in system). Averaging
 * the shards' values would lower the sampling noise but cannot be kept associative: an average
 * of averages rounded to 3 decimals changes with the grouping of the inputs.
 */
import { WORKER_STATES, type WorkerState } from '../../contract/sim-events.js';
import type { EndpointWindows, EngineWindows, GpuWindows } from '../run-result.js';
import { at } from './alignment.js';

/** `list` in shard order (undefined: that input has no view of the endpoint); `n` merged windows. */
export function mergeEndpointWindows(list: readonly (EndpointWindows | undefined)[], shifts: readonly number[], n: number): EndpointWindows | undefined {
  const present = list.flatMap((e, i) => (e ? [{ e, shift: shifts[i]! }] : []));
  if (!present.length) return undefined;
  const pick = (w: number) => present.find(({ e, shift }) => at(e.queueLength, shift, w, -1) >= 0);
  const picks = Array.from({ length: n }, (_, w) => pick(w));
  const column = (read: (e: EndpointWindows) => number[]) => picks.map((p, w) => (p ? at(read(p.e), p.shift, w, -1) : -1));
  const workers = {} as Record<WorkerState, number[]>;
  for (const s of WORKER_STATES) workers[s] = column((e) => e.workers[s] ?? []);
  // One source: a merge of 'simulator' views only stays 'simulator'.
  const source = present.every(({ e }) => e.source === 'simulator') ? 'simulator' : 'sampled';
  const engine = mergeEngine(
    present.map(({ e }) => e.engine),
    (read) => column((e) => (e.engine ? (read(e.engine) ?? []) : [])),
  );
  const byGpu = mergeGpus(
    present.map(({ e }) => e.byGpu),
    (gpu, s) => column((e) => e.byGpu?.find((g) => g.gpu === gpu)?.workers[s] ?? []),
  );
  return {
    source,
    queueLength: column((e) => e.queueLength),
    jobsInSystem: column((e) => e.jobsInSystem),
    workers,
    ...(engine ? { engine } : {}),
    ...(byGpu ? { byGpu } : {}),
  };
}

/** The workers on each GPU type from the same picks (a pick without that type gives -1); every type some input has, in the order first seen. */
function mergeGpus(list: readonly (GpuWindows[] | undefined)[], column: (gpu: string, s: WorkerState) => number[]): GpuWindows[] | undefined {
  const gpus = [...new Set(list.flatMap((l) => (l ?? []).map((g) => g.gpu)))];
  if (!gpus.length) return undefined;
  return gpus.map((gpu) => {
    const workers = {} as Record<WorkerState, number[]>;
    for (const s of WORKER_STATES) workers[s] = column(gpu, s);
    return { gpu, workers };
  });
}

/**
 * The engines' windows from the same picks (an input without them gives -1 there); kept when
 * some input has them, the KV cache usage when some has it.
 */
function mergeEngine(
  list: readonly (EngineWindows | undefined)[],
  column: (read: (e: EngineWindows) => number[] | undefined) => number[],
): EngineWindows | undefined {
  if (!list.some((e) => e)) return undefined;
  const usage = list.some((e) => e?.kvCacheUsage);
  return {
    running: column((e) => e.running),
    waiting: column((e) => e.waiting),
    ...(usage ? { kvCacheUsage: column((e) => e.kvCacheUsage), kvCacheUsageMax: column((e) => e.kvCacheUsageMax) } : {}),
    preemptions: column((e) => e.preemptions),
    ...(list.some((e) => e?.prefixCacheQueries)
      ? { prefixCacheQueries: column((e) => e.prefixCacheQueries), prefixCacheHits: column((e) => e.prefixCacheHits) }
      : {}),
  };
}
