/**
 * `serve`'s gauge of the workers on each GPU type (`loadlab_workers_by_gpu{endpoint, gpu, state}`),
 * for endpoints that list their GPU types (`gpus`). A family of its own beside `loadlab_workers`
 * (whose labels dashboards rely on), so summing either one counts each worker once. Registered
 * only when some endpoint lists gpus, every (gpu, state) at 0 from the start, and read from the
 * simulator at scrape time (a worker is placed on a type after the state change that starts it).
 */
import { Gauge } from 'prom-client';
import { METRIC } from '../contract/metric-names.js';
import { WORKER_STATES, type WorkerState } from '../contract/sim-events.js';
import type { Metrics } from './registry.js';

/** One endpoint's workers now: per GPU type (its `gpus`, in order), counted by state. */
export interface GpuReading {
  endpoint: string;
  byGpu: readonly Readonly<Record<WorkerState, number>>[];
}

/** Adds the family to `m`'s registry for `endpoints` (each with its GPU types); `read` is called at every scrape. */
export function collectGpuMetrics(m: Metrics, endpoints: readonly { id: string; gpus: readonly string[] }[], read: () => Iterable<GpuReading>): void {
  const gauge = new Gauge({
    name: METRIC.workersByGpu,
    help: 'Workers placed on each GPU type, per state (endpoints that list their GPU types)',
    labelNames: ['endpoint', 'gpu', 'state'],
    registers: [m.registry],
  });
  const names = new Map(endpoints.map((e) => [e.id, e.gpus]));
  for (const { id: endpoint, gpus } of endpoints) for (const gpu of gpus) for (const state of WORKER_STATES) gauge.set({ endpoint, gpu, state }, 0);
  m.beforeScrape.push(() => {
    for (const { endpoint, byGpu } of read()) {
      const gpus = names.get(endpoint)!;
      byGpu.forEach((counts, t) => {
        for (const state of WORKER_STATES) gauge.set({ endpoint, gpu: gpus[t]!, state }, counts[state]);
      });
    }
  });
}
