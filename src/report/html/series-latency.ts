/** Charts of times over the run: response time per operation, job turnaround; p50 / p95 / p99. */
import type { RunResult } from '../run-result.js';
import { note, sortedKeys, type ChartSlot } from './chart-slot.js';
import type { ChartSeries } from './chart-spec.js';
import { grouping, pointNote, pointXs } from './downsample.js';
import { percentilesOverTime } from './percentiles.js';

const PS = [50, 95, 99] as const;
const PALETTE = ['#3366cc', '#dc3912', '#ff9900', '#109618', '#990099', '#0099c6', '#dd4477', '#66aa00', '#b82e2e', '#316395'];
/** p99 solid and thick, p95 solid, p50 dashed: the same colour per operation. */
const STYLE: Record<number, Partial<ChartSeries>> = { 50: { dash: true, width: 1 }, 95: { width: 1.25 }, 99: { width: 2 } };
const NO_WINDOWS = (r: RunResult) => `This report (version ${r.version}) has no per-window histograms; the tables below have the whole-run percentiles.`;

export function responseTimeChart(r: RunResult): ChartSlot {
  const title = 'Response time p50 / p95 / p99 by operation';
  const w = r.windows;
  if (!w) return note('response-time', title, NO_WINDOWS(r));
  const ops = sortedKeys(w.responseMs).filter((op) => w.responseMs[op]!.some((e) => e));
  if (!ops.length) return note('response-time', title, 'No answers in this run.');
  const g = grouping(Math.max(...ops.map((op) => w.responseMs[op]!.length)), w.windowMs);
  const series = ops.flatMap((op, i) => {
    const vs = percentilesOverTime([w.responseMs[op]!], g, PS);
    return PS.map((p, j) => ({ label: `${op} p${p}`, values: vs[j]!, color: PALETTE[i % PALETTE.length], ...STYLE[p] }));
  });
  return {
    kind: 'chart',
    spec: {
      id: 'response-time',
      title,
      unit: 'ms',
      x: pointXs(g),
      series,
      subtitle: `intended send → answer; ${pointNote(g, 'merged')}`,
    },
  };
}

export function turnaroundChart(r: RunResult): ChartSlot {
  const title = 'Job turnaround p50 / p95 / p99, all flows';
  const w = r.windows;
  if (!w) return note('turnaround', title, NO_WINDOWS(r));
  const lists = sortedKeys(w.flows)
    .map((f) => w.flows[f]!.turnaroundMs ?? [])
    .filter((l) => l.some((e) => e));
  if (!lists.length) return note('turnaround', title, 'No job finished in this run.');
  const g = grouping(Math.max(...lists.map((l) => l.length)), w.windowMs);
  const vs = percentilesOverTime(lists, g, PS);
  return {
    kind: 'chart',
    spec: {
      id: 'turnaround',
      title,
      unit: 'ms',
      x: pointXs(g),
      subtitle: `submission → terminal status read, every flow's jobs together (per flow: the table below); ${pointNote(g, 'merged')}`,
      series: PS.map((p, j) => ({ label: `p${p}`, values: vs[j]!, color: PALETTE[j], ...STYLE[p] })),
    },
  };
}
