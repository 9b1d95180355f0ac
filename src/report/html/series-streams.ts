/**
 * Charts of streamed answers over the run (only when a flow streamed): TTFT, ITL and TPOT
 * p50 / p95 / p99 per streaming flow (ms with their fraction, from the 0.01 ms histograms), and
 * output tokens/s per flow.
 */
import type { RunResult, StreamSeries, StreamWindows } from '../run-result.js';
import { note, sortedKeys, total, type ChartSlot } from './chart-slot.js';
import type { ChartSeries } from './chart-spec.js';
import { grouping, pointNote, pointXs, ratePerSec } from './downsample.js';
import { percentilesOverTime } from './percentiles.js';
import { windowScale } from '../stream-scale.js';

const PS = [50, 95, 99] as const;
const PALETTE = ['#3366cc', '#dc3912', '#ff9900', '#109618', '#990099', '#0099c6'];
const STYLE: Record<number, Partial<ChartSeries>> = { 50: { dash: true, width: 1 }, 95: { width: 1.25 }, 99: { width: 2 } };

const TIMES: readonly { series: StreamSeries; id: string; title: string; what: string }[] = [
  { series: 'ttftMs', id: 'ttft', title: 'Time to first token p50 / p95 / p99 by flow', what: 'intended send → first content chunk' },
  { series: 'itlMs', id: 'itl', title: 'Inter-token latency p50 / p95 / p99 by flow', what: 'each gap between content chunks' },
  { series: 'tpotMs', id: 'tpot', title: 'Time per output token p50 / p95 / p99 by flow', what: '(last − first chunk) / (tokens − 1)' },
];

/** The stream charts; none for a run without streaming flows. */
export function streamCharts(r: RunResult): ChartSlot[] {
  const w = r.windows;
  const streams = w?.streams;
  if (!w || !streams || !sortedKeys(streams).length) return [];
  const flows = sortedKeys(streams);
  const g = grouping(Math.max(...flows.map((f) => streams[f]!.tokens.length)), w.windowMs);
  const times = TIMES.map(({ series, id, title, what }): ChartSlot => {
    const shown = flows.filter((f) => streams[f]![series].some((e) => e));
    if (!shown.length) return note(id, title, 'No streamed content in this run.');
    return {
      kind: 'chart',
      spec: {
        id,
        title,
        unit: 'ms',
        x: pointXs(g),
        subtitle: `${what}; in the window of the stream's last chunk; ${pointNote(g, 'merged')}`,
        series: shown.flatMap((f, i) => {
          const vs = percentilesOverTime([streams[f]![series]], g, PS, windowScale(streams[f]!, series));
          return PS.map((p, j) => ({ label: `${f} p${p}`, values: vs[j]!, color: PALETTE[i % PALETTE.length], ...STYLE[p] }));
        }),
      },
    };
  });
  return [...times, tokensChart(flows, streams, g)];
}

function tokensChart(flows: string[], streams: Record<string, StreamWindows>, g: ReturnType<typeof grouping>): ChartSlot {
  const title = 'Output tokens/s by flow';
  if (!flows.some((f) => total(streams[f]!.tokens))) return note('tokens', title, 'No streamed tokens in this run.');
  return {
    kind: 'chart',
    spec: {
      id: 'tokens',
      title,
      unit: 'tokens/s',
      x: pointXs(g),
      subtitle: `tokens of the streams that ended in the window / its length; ${pointNote(g, 'mean')}`,
      series: flows.map((f, i) => ({ label: f, values: ratePerSec(streams[f]!.tokens, g), color: PALETTE[i % PALETTE.length] })),
    },
  };
}
