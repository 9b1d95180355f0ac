/** A RunResult as the charts of report.html, top to bottom (each a chart or a one-line note). */
import type { RunResult } from '../run-result.js';
import type { ChartSlot } from './chart-slot.js';
import { endpointChart } from './series-endpoint.js';
import { engineCharts } from './series-engine.js';
import { gpuCharts } from './series-gpu.js';
import { expiriesChart, webhooksChart } from './series-events.js';
import { responseTimeChart, turnaroundChart } from './series-latency.js';
import { streamCharts } from './series-streams.js';
import { jobsChart, limitedChart, requestsChart } from './series-traffic.js';

export type { ChartSlot } from './chart-slot.js';

export function chartSlots(r: RunResult): ChartSlot[] {
  return [
    requestsChart(r),
    limitedChart(r),
    responseTimeChart(r),
    turnaroundChart(r),
    ...streamCharts(r),
    jobsChart(r),
    endpointChart(r),
    ...gpuCharts(r),
    ...engineCharts(r),
    webhooksChart(r),
    expiriesChart(r),
  ];
}
