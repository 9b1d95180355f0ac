/**
 * The dry run's lines on a token trace (`replay` with `format`): requests in its window, its span,
 * the rate over time (requests per minute, or per 10 s in a span under 10 min: min / median / max), and the prompt and answer lengths (p50 / p90
 * / p99 / max), all from one streaming pass over the file (load/trace/trace-scan.ts), on the
 * replay clock (after `speed`).
 */
import { basename } from 'node:path';
import { traceOf } from '../load/arrivals/replay.js';
import type { ArrivalSpec } from '../load/arrivals/registry.js';
import { quantileOf, scanTrace } from '../load/trace/trace-scan.js';

export function traceSummary(a: ArrivalSpec): string[] {
  if (a.process !== 'replay' || a.format === undefined) return [];
  const r = traceOf(a);
  const s = scanTrace(r);
  // Per minute over a span of 10 min or more, else per 10 s.
  const [per, counts] = s.lastMs - s.firstMs >= 600_000 ? ['minute', sumsOf(s.perTenSec, 6)] : ['10 s', s.perTenSec];
  const sorted = [...counts].sort((x, y) => x - y);
  const n = sorted.length;
  const lengths = (m: ReadonlyMap<number, number>) => [0.5, 0.9, 0.99, 1].map((q) => quantileOf(m, q)).join(' / ');
  const window = r.fromMs > 0 || r.toMs !== undefined ? `, window [${r.fromMs}, ${r.toMs ?? 'end'}) ms of its clock` : '';
  const speed = r.speed === 1 ? '' : ` at speed ${r.speed}`;
  const skipped = s.skipped ? `; ${s.skipped} row${s.skipped === 1 ? '' : 's'} with an answer of 0 tokens skipped` : '';
  return [
    `    trace ${basename(r.path)} (${r.format}${window}${speed}): ${s.rows} requests over ${minutes(s.lastMs - s.firstMs)}${a.loop ? ', looped' : ''}${skipped}`,
    `    requests per ${per} (${n} of them): min ${sorted[0] ?? 0} / median ${sorted[Math.floor((n - 1) / 2)] ?? 0} / max ${sorted[n - 1] ?? 0}; peak ${s.peakPerSec} in one second`,
    `    prompt tokens p50 / p90 / p99 / max: ${lengths(s.promptCounts)} (${s.promptTokens} in all); answer tokens: ${lengths(s.outputCounts)} (${s.outputTokens} in all)`,
  ];
}

function minutes(ms: number): string {
  return ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
}

/** Sums of each `k` items in a row (the last group may be short). */
function sumsOf(a: readonly number[], k: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length; i += k) out.push(a.slice(i, i + k).reduce((x, y) => x + y, 0));
  return out;
}
