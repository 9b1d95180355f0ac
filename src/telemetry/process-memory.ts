/**
 * The process's memory on a registry: resident set size and V8 heap in use (PROCESS_METRIC,
 * prom-client's own names, so dashboards read `serve` and the live runner alike). Two gauges read
 * `process.memoryUsage()` at scrape time only: no event-loop monitor, GC observer or timer as
 * prom-client's `collectDefaultMetrics` would start, and nothing is paid between scrapes.
 */
import { Gauge, type Registry } from 'prom-client';
import { PROCESS_METRIC } from '../contract/metric-names.js';

export function registerProcessMemory(registry: Registry): void {
  const registers = [registry];
  // prom-client awaits `collect` before it reads the gauge; `this` is the gauge being scraped.
  new Gauge({
    name: PROCESS_METRIC.residentMemory,
    help: 'Resident memory size in bytes.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: PROCESS_METRIC.heapUsed,
    help: 'Process heap size used from Node.js in bytes.',
    registers,
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
}
