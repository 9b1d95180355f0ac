/**
 * compare.html's charts: the two runs over time on the same axes (x = run time), A solid and B
 * dashed in the same colour — requests and 2xx per second, 429s per second, response time p95 and
 * p99 per operation, turnaround and queue delay p95 per flow, TTFT, ITL and TPOT p95 per streaming
 * flow (when either run streamed), queue length. Built on report.html's
 * chart API (report/html/); a chart neither run has data for becomes a one-line note.
 */
import type { ChartSlot } from '../html/chart-slot.js';
import { note, sortedKeys } from '../html/chart-slot.js';
import type { ChartSeries } from '../html/chart-spec.js';
import { duration, meanPerPoint, ratePerSec, type Grouping } from '../html/downsample.js';
import { percentilesOverTime } from '../html/percentiles.js';
import type { JobSeries, RunResult, StreamSeries } from '../run-result.js';
import { windowScale } from '../stream-scale.js';
import { overlay, padTo, type Overlay } from './overlay.js';

const PALETTE = ['#3366cc', '#dc3912', '#ff9900', '#109618', '#990099', '#0099c6', '#dd4477', '#66aa00', '#b82e2e', '#316395'];
const NO_OVERLAY = "The two runs' windows have no common length, so they cannot share a time axis.";

/** A's series solid, B's dashed, both in `color`. */
function pair(label: string, color: string, a: (number | null)[], b: (number | null)[], o: Overlay): ChartSeries[] {
  return [
    { label: `A ${label}`, values: padTo(a, o.x.length), color, width: 2 },
    { label: `B ${label}`, values: padTo(b, o.x.length), color, dash: true, width: 2 },
  ];
}

const pointNote = (o: Overlay) => `each point ${duration(o.spanMs)}`;

function limitedOf(r: RunResult): number[] {
  const t = r.timeline;
  return t.requests.map((_, i) => t.limitedRate[i]! + t.limitedConcurrency[i]! + t.limitedQueue[i]! + t.limitedUnknown[i]!);
}

function trafficCharts(a: RunResult, b: RunResult): ChartSlot[] {
  const [ta, tb] = [a.timeline, b.timeline];
  const o = overlay({ windowMs: ta.windowMs, windows: ta.requests.length }, { windowMs: tb.windowMs, windows: tb.requests.length });
  if (!o) return [note('requests', 'Requests/s', NO_OVERLAY)];
  const rate = (ys: number[], g: Grouping) => ratePerSec(ys, g);
  const requests: ChartSlot = {
    kind: 'chart',
    spec: {
      id: 'requests',
      title: 'Requests/s and 2xx/s, all operations',
      unit: 'req/s',
      x: o.x,
      subtitle: `mean rate; ${pointNote(o)}`,
      series: [
        ...pair('requests', PALETTE[0]!, rate(ta.requests, o.a), rate(tb.requests, o.b), o),
        ...pair('2xx', PALETTE[3]!, rate(ta.responses2xx, o.a), rate(tb.responses2xx, o.b), o),
      ],
    },
  };
  const [la, lb] = [limitedOf(a), limitedOf(b)];
  const limited: ChartSlot =
    la.some((v) => v) || lb.some((v) => v)
      ? {
          kind: 'chart',
          spec: {
            id: 'limited',
            title: '429s/s, all causes',
            unit: '429/s',
            x: o.x,
            subtitle: `mean rate; ${pointNote(o)}`,
            series: pair('429s', '#d62728', rate(la, o.a), rate(lb, o.b), o),
          },
        }
      : note('limited', '429s/s', 'No 429s in either run.');
  return [requests, limited];
}

type Lists = (r: RunResult) => Record<string, string[]>;
/** Values per ms of a name's histograms in a run (1: whole ms; the stream times: stream-scale.ts). */
type Scale = (r: RunResult, name: string) => number;

/** One percentile of per-window histograms, one A/B pair per name (operation or flow) either run has. */
function percentileChart(a: RunResult, b: RunResult, id: string, title: string, lists: Lists, p: number, what: string, scale: Scale = () => 1): ChartSlot {
  const [wa, wb] = [a.windows, b.windows];
  if (!wa || !wb)
    return note(
      id,
      title,
      `Run ${wa ? 'B' : 'A'} has no per-window histograms (a version-1 report, or a blast); the tables above have the whole-run percentiles.`,
    );
  const [la, lb] = [lists(a), lists(b)];
  const names = [...new Set([...sortedKeys(la), ...sortedKeys(lb)])].sort().filter((n) => [la[n], lb[n]].some((l) => l?.some((e) => e)));
  if (!names.length) return note(id, title, 'No samples in either run.');
  const len = (l: Record<string, string[]>) => Math.max(0, ...Object.values(l).map((x) => x.length));
  const o = overlay({ windowMs: wa.windowMs, windows: len(la) }, { windowMs: wb.windowMs, windows: len(lb) });
  if (!o) return note(id, title, NO_OVERLAY);
  const pct = (r: RunResult, n: string, l: string[] | undefined, g: Grouping) => (l ? percentilesOverTime([l], g, [p], scale(r, n))[0]! : []);
  return {
    kind: 'chart',
    spec: {
      id,
      title,
      unit: 'ms',
      x: o.x,
      subtitle: `${what}; histograms merged per point, ${pointNote(o)}`,
      series: names.flatMap((n, i) => pair(`${n} p${p}`, PALETTE[i % PALETTE.length]!, pct(a, n, la[n], o.a), pct(b, n, lb[n], o.b), o)),
    },
  };
}

const flowSeries =
  (s: JobSeries): Lists =>
  (r) =>
    Object.fromEntries(Object.entries(r.windows?.flows ?? {}).flatMap(([f, w]) => (w[s] ? [[f, w[s]]] : [])));

/** A flow's stream windows of `s` (TTFT, ITL, TPOT), per streaming flow. */
const streamSeries =
  (s: StreamSeries): Lists =>
  (r) =>
    Object.fromEntries(Object.entries(r.windows?.streams ?? {}).map(([f, w]) => [f, w[s]]));
const streamScale =
  (s: StreamSeries): Scale =>
  (r, f) => {
    const w = r.windows?.streams?.[f];
    return w ? windowScale(w, s) : 1;
  };

/** TTFT, ITL and TPOT p95 per streaming flow; none when neither run streamed. */
function streamCharts(a: RunResult, b: RunResult): ChartSlot[] {
  const streamed = (r: RunResult) => Object.keys(r.windows?.streams ?? {}).length > 0;
  if (!streamed(a) && !streamed(b)) return [];
  return STREAM_TIMES.map(({ series, id, title, what }) => percentileChart(a, b, id, title, streamSeries(series), 95, what, streamScale(series)));
}

const STREAM_TIMES: readonly { series: StreamSeries; id: string; title: string; what: string }[] = [
  { series: 'ttftMs', id: 'ttft-p95', title: 'Time to first token p95 by flow', what: 'intended send → first content chunk, in the window of the last chunk' },
  { series: 'itlMs', id: 'itl-p95', title: 'Inter-token latency p95 by flow', what: 'each gap between content chunks, in the window of the last chunk' },
  {
    series: 'tpotMs',
    id: 'tpot-p95',
    title: 'Time per output token p95 by flow',
    what: '(last − first chunk) / (tokens − 1), in the window of the last chunk',
  },
];

function queueChart(a: RunResult, b: RunResult): ChartSlot {
  const [ea, eb] = [a.windows?.endpoint, b.windows?.endpoint];
  const title = 'Queue length';
  if (!ea || !eb) return note('queue', title, 'One of the runs has no endpoint series (a report before version 3, or a target that does not show the queue).');
  const o = overlay({ windowMs: a.windows!.windowMs, windows: ea.queueLength.length }, { windowMs: b.windows!.windowMs, windows: eb.queueLength.length });
  if (!o) return note('queue', title, NO_OVERLAY);
  return {
    kind: 'chart',
    spec: {
      id: 'queue',
      title,
      unit: 'jobs',
      x: o.x,
      subtitle: `time average of jobs waiting; ${pointNote(o)}`,
      series: [
        ...pair('queue length', PALETTE[0]!, meanPerPoint(ea.queueLength, o.a), meanPerPoint(eb.queueLength, o.b), o),
        ...pair('jobs in system', PALETTE[4]!, meanPerPoint(ea.jobsInSystem, o.a), meanPerPoint(eb.jobsInSystem, o.b), o),
      ],
    },
  };
}

export function compareCharts(a: RunResult, b: RunResult): ChartSlot[] {
  const response: Lists = (r) => r.windows?.responseMs ?? {};
  return [
    ...trafficCharts(a, b),
    percentileChart(a, b, 'response-p95', 'Response time p95 by operation', response, 95, 'intended send → answer'),
    percentileChart(a, b, 'response-p99', 'Response time p99 by operation', response, 99, 'intended send → answer'),
    percentileChart(a, b, 'turnaround-p95', 'Job turnaround p95 by flow', flowSeries('turnaroundMs'), 95, 'submission → terminal status read'),
    percentileChart(a, b, 'queue-delay-p95', 'Queue delay p95 by flow', flowSeries('queueDelayMs'), 95, 'delayTime of terminal statuses'),
    ...streamCharts(a, b),
    queueChart(a, b),
  ];
}
