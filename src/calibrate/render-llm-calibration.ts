/**
 * calibration.md's and calibration.html's part for a batching endpoint: workerConcurrency and
 * llm's figures in the main table, their notes, and the observed against the fitted: median
 * inter-token gap per batch size, TTFT less its iterations per prompt length, output tokens at
 * p10 to p99.
 */
import type { ChartSpec } from '../report/html/chart-spec.js';
import type { Calibration, CalibrationWithCurves } from './calibration.js';
import type { EngineFigure, EngineFit } from './fit-engine.js';
import { ttftPoints } from './fit-ttft.js';
import { quantile } from './fit-duration.js';
import { inverse } from './inverse-cdf.js';
import { hasGaps, type StreamRow } from './stream-rows.js';

const PS = [0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99];

/** Rows of the main table (quantity | fitted | samples | fit | trust). */
export function llmTableRows(k: Calibration): string[] {
  const out: string[] = [];
  const wc = k.workerConcurrency;
  if (wc?.value !== undefined)
    out.push(
      `| workerConcurrency | ${wc.value} | most jobs per running worker (${wc.rows} /health rows) | ${wc.reached ? 'the queue waited at it' : 'never seen full'} | ${wc.reached ? 'yes' : 'a lower bound'} |`,
    );
  const l = k.llm;
  if (l === undefined) return out;
  const t = l.outputTokens;
  const what =
    t.model === 'none' ? "— (scenario's value kept)" : t.model === 'constant' ? `constant ${t.p50} tokens` : `${t.model}: p50 ${t.p50}, p95 ${t.p95} tokens`;
  out.push(`| llm.outputTokens | ${what} | ${t.samples} | ${t.ks !== undefined ? `${t.ks} (limit ${t.ksLimit})` : '—'} | ${yes(t.trusted)} |`);
  const e = l.engine;
  if (e === undefined) return out;
  const itl = `${e.itl.streams} streams at ${r2(e.itl.perWorkerMin)}–${r2(e.itl.perWorkerMax)} sequences per worker`;
  const ttft = `${e.ttft.streams} streams ${e.ttft.alone ? 'alone on their worker' : 'with nothing queued'}, prompts of ${e.ttft.promptMin}–${e.ttft.promptMax} tokens`;
  out.push(
    figureRow('llm.engine.decodeMs', e.decodeMs, 'ms', itl, 'median ITL against sequences per worker: intercept'),
    figureRow('llm.engine.perSequenceMs', e.perSequenceMs, 'ms', itl, 'median ITL against sequences per worker: slope'),
    figureRow('llm.engine.prefillMsPerToken', e.prefillMsPerToken, 'ms/token', ttft, 'TTFT (iterations taken off) against prompt tokens: slope'),
    figureRow('llm.engine.overheadMs', e.overheadMs, 'ms', ttft, 'TTFT (iterations taken off) against prompt tokens: intercept'),
  );
  return out;
}

/** Notes under the main table, one per figure that has one. */
export function llmNotes(k: Calibration): string[] {
  const e = k.llm?.engine;
  return [
    ['workerConcurrency', k.workerConcurrency?.value !== undefined ? k.workerConcurrency.note : undefined],
    ['llm.outputTokens', k.llm?.outputTokens.note],
    ['llm.engine.decodeMs', e?.decodeMs.note],
    ['llm.engine.perSequenceMs', e?.perSequenceMs.note],
    ['llm.engine.prefillMsPerToken', e?.prefillMsPerToken.note],
    ['llm.engine.overheadMs', e?.overheadMs.note],
    [
      'llm.engine',
      e?.bunched
        ? `${e.bunched} streams arrived in one piece (their chunks under 0.1 ms apart: buffered on the way, or not sent live) and were left out of its fit`
        : undefined,
    ],
  ]
    .filter(([, n]) => n)
    .map(([q, n]) => `- **${q}**: ${n}.`);
}

/** The sections comparing observed and fitted, after the duration CDFs. */
export function llmSections(c: CalibrationWithCurves): string[] {
  const l = c.calibration.llm;
  const s = c.streams;
  if (l === undefined || s === undefined) return [];
  const out: string[] = [];
  const e = l.engine;
  if (e) {
    out.push(
      '## llm.engine: inter-token latency against sequences per worker',
      '',
      `Each stream's median gap between tokens against the sequences in flight per worker while it streamed (${BATCH_FROM[l.batchFrom]}); fitted: ${e.decodeMs.value} + ${e.perSequenceMs.value} × (n − 1) ms.`,
      '',
      '| sequences per worker | streams | observed median ITL (ms) | fitted (ms) |',
      '|---:|---:|---:|---:|',
    );
    for (const b of itlBins(s.rows, e.decodeMs.value, e.perSequenceMs.value)) out.push(`| ${b.x} | ${b.n} | ${r2(b.observed)} | ${r2(b.fitted)} |`);
    out.push('', '## llm.engine: time to first token against prompt tokens', '');
    out.push(
      `${
        e.ttft.alone
          ? 'The TTFT of each stream that joined an idle engine (alone on its worker) less decodeMs: its prefill iteration'
          : "Each stream's TTFT less its iterations (the one that prefilled its prompt, and half one for the boundary it waited for when others were decoding)"
      }; fitted: ${e.overheadMs.value} + ${e.prefillMsPerToken.value} × prompt tokens ms.`,
      '',
      '| prompt tokens | streams | observed median (ms) | fitted (ms) |',
      '|---:|---:|---:|---:|',
    );
    for (const b of promptBins(s.rows, e)) out.push(`| ${b.x} | ${b.n} | ${r2(b.observed)} | ${r2(b.fitted)} |`);
    out.push('');
  }
  if (s.tokens) {
    const sorted = s.rows.map((r) => r.tokens).sort((a, b) => a - b);
    out.push('## llm.outputTokens: observed against fitted', '', `${s.tokens.model}; KS distance ${s.tokens.ks} (limit ${s.tokens.ksLimit}).`, '');
    out.push('| percentile | observed (tokens) | fitted (tokens) |', '|---:|---:|---:|');
    for (const p of PS) out.push(`| p${Math.round(p * 100)} | ${r2(quantile(sorted, p))} | ${r2(inverse(s.tokens.cdf, p, sorted[sorted.length - 1]!))} |`);
    out.push('');
  }
  return out;
}

/** calibration.html's chart of the ITL fit. */
export function llmCharts(c: CalibrationWithCurves): ChartSpec[] {
  const e = c.calibration.llm?.engine;
  const s = c.streams;
  if (!e || !s) return [];
  const bins = itlBins(s.rows, e.decodeMs.value, e.perSequenceMs.value);
  return [
    {
      id: 'llm-itl',
      title: 'llm.engine: median inter-token latency against sequences per worker',
      subtitle: `${e.itl.streams} streams; fitted ${e.decodeMs.value} + ${e.perSequenceMs.value} × (n − 1) ms`,
      unit: 'ms',
      xAxis: { kind: 'value', label: 'sequences per worker' },
      x: bins.map((b) => b.x),
      series: [
        { label: 'observed (median of the streams)', values: bins.map((b) => r2(b.observed)), points: true },
        { label: 'fitted', values: bins.map((b) => r2(b.fitted)), dash: true },
      ],
    },
  ];
}

const BATCH_FROM = {
  health: 'from /health: jobs in progress over running workers',
  run: "estimated from the run's own streams in flight",
  both: "from /health where its answers covered the stream, else from the run's own streams in flight",
};

interface Bin {
  x: number;
  n: number;
  observed: number;
  fitted: number;
}

/** Streams grouped by sequences per worker, to the nearest half. */
function itlBins(rows: readonly StreamRow[], decode: number, perSeq: number): Bin[] {
  const by = group(
    rows.filter(hasGaps),
    (r) => Math.round(r.perWorker * 2) / 2,
    (r) => r.itlMs,
  );
  return by.map(([x, ys]) => ({ x, n: ys.length, observed: med(ys), fitted: decode + perSeq * Math.max(0, x - 1) }));
}

/** The TTFT fit's streams grouped by prompt tokens (at most 12 groups, each at its median prompt), y their TTFT less their iterations. */
function promptBins(rows: readonly StreamRow[], e: EngineFit): Bin[] {
  const p = ttftPoints(rows, e.decodeMs.value, e.perSequenceMs.value);
  const y = new Map(p.rows.map((r, i) => [r, p.y[i]!]));
  const clear = p.rows;
  const ps = clear.map((r) => r.promptTokens);
  const lo = Math.min(...ps);
  const step = Math.max(1, Math.ceil((Math.max(...ps) - lo + 1) / 12));
  return group(
    clear,
    (r) => Math.floor((r.promptTokens - lo) / step),
    (r) => r,
  ).map(([, rs]) => {
    const x = med(rs.map((r) => r.promptTokens));
    const observed = med(rs.map((r) => y.get(r)!));
    return { x, n: rs.length, observed, fitted: e.overheadMs.value + e.prefillMsPerToken.value * x };
  });
}

function group<T>(rows: readonly StreamRow[], key: (r: StreamRow) => number, val: (r: StreamRow) => T): [number, T[]][] {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(val(r));
    else m.set(k, [val(r)]);
  }
  return [...m].sort((a, b) => a[0] - b[0]);
}

function figureRow(name: string, f: EngineFigure, unit: string, samples: string, how: string): string {
  return `| ${name} | ${f.value} ${unit}${f.se !== undefined ? ` ± ${f.se}` : ''} | ${samples} | ${how} | ${yes(f.trusted)} |`;
}

function med(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return quantile(s, 0.5);
}

const yes = (t: boolean): string => (t ? 'yes' : '**not to be trusted** (see below)');
const r2 = (x: number): number => Math.round(x * 100) / 100;
