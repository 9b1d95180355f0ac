/**
 * The figures vllm bench serve reports, computed the way it computes them from each request's
 * send time and content-chunk arrivals: TTFT (send → first chunk), ITL (every gap between
 * consecutive chunks, pooled over requests), TPOT ((last − first chunk) / (tokens − 1), per
 * request of 2 tokens or more), E2E latency (send → last chunk) and output tokens/s (all tokens
 * over the span from the first send to the last chunk). Percentiles interpolate linearly, as
 * numpy's do. Times in ms.
 */
import { quantile } from '../fit-duration.js';

/** One streamed request: when it was sent, when each content chunk arrived (ms), its output and prompt tokens. */
export interface StreamedRequest {
  sentMs: number;
  atMs: readonly number[];
  tokens: number;
  promptTokens: number;
}

/** The figures calibrate compares; undefined where a file does not give one. */
export interface LevelFigures {
  ttftP50?: number;
  ttftP99?: number;
  itlP50?: number;
  tpotP50?: number;
  e2elP50?: number;
  outputTokensPerS?: number;
}

export const FIGURES: readonly (keyof LevelFigures)[] = ['ttftP50', 'ttftP99', 'itlP50', 'tpotP50', 'e2elP50', 'outputTokensPerS'];

export function figuresOf(reqs: readonly StreamedRequest[]): LevelFigures & { requests: number } {
  const ttft: number[] = [];
  const itl: number[] = [];
  const tpot: number[] = [];
  const e2el: number[] = [];
  let tokens = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const r of reqs) {
    const n = r.atMs.length;
    if (n === 0) continue;
    const a = r.atMs[0]!;
    const z = r.atMs[n - 1]!;
    ttft.push(a - r.sentMs);
    for (let i = 1; i < n; i++) itl.push(r.atMs[i]! - r.atMs[i - 1]!);
    if (r.tokens >= 2) tpot.push((z - a) / (r.tokens - 1));
    e2el.push(z - r.sentMs);
    tokens += r.tokens;
    first = Math.min(first, r.sentMs);
    last = Math.max(last, z);
  }
  const at = (xs: number[], q: number): number | undefined =>
    xs.length
      ? quantile(
          xs.sort((x, y) => x - y),
          q,
        )
      : undefined;
  return {
    requests: ttft.length,
    ttftP50: at(ttft, 0.5),
    ttftP99: at(ttft, 0.99),
    itlP50: at(itl, 0.5),
    tpotP50: at(tpot, 0.5),
    e2elP50: at(e2el, 0.5),
    outputTokensPerS: last > first ? (tokens * 1000) / (last - first) : undefined,
  };
}
