/**
 * The two process metrics loadlab exports beside its own (PROCESS_METRIC: prom-client's names and
 * meanings, without the rest of `collectDefaultMetrics`), read from `process.memoryUsage()` at
 * scrape time. No labels: Prometheus tells processes apart by scrape target.
 */
import type { Registry } from 'prom-client';
import { PROCESS_METRIC } from '../contract/metric-names.js';
import { ScrapedMetric } from './scraped-metric.js';

export function registerProcessGauges(registry: Registry): void {
  new ScrapedMetric(PROCESS_METRIC.residentMemory, 'Resident memory size in bytes.', 'gauge', () => [{ labels: {}, value: process.memoryUsage.rss() }], registry);
  new ScrapedMetric(PROCESS_METRIC.heapUsed, 'Process heap size used from Node.js in bytes.', 'gauge', () => [{ labels: {}, value: process.memoryUsage().heapUsed }], registry);
}
