/**
 * The streaming flows' sections over shards: whole-run stream histograms add exactly, requests,
 * broken streams, tokens, prompt tokens and good requests add (`flows.*.stream`), and per window
 * (`windows.streams`) the histograms and columns add on the merged time axis. Stream times merge
 * at the finest scale among the inputs: 0.01 ms, or whole ms when every input is an older report.
 */
import { mergeEncoded } from '../histogram.js';
import type { FlowStreamStats, StreamSeries, StreamWindows } from '../run-result.js';
import { at } from './alignment.js';
import { mergeWindowSeries } from './histograms.js';
import { windowScale } from '../stream-scale.js';
import { prefixCacheOf } from '../prefix-cache-rate.js';

const SERIES: readonly StreamSeries[] = ['ttftMs', 'itlMs', 'tpotMs', 'tokensPerS'];
const sum = (list: readonly FlowStreamStats[], f: (s: FlowStreamStats) => number) => list.reduce((n, s) => n + f(s), 0);

/** One flow's stream sections of the shards that have one; undefined: none has. */
export function mergeFlowStream(list: readonly FlowStreamStats[]): FlowStreamStats | undefined {
  if (!list.length) return undefined;
  const targets = list.find((s) => s.goodputTargets)?.goodputTargets;
  const good = list.some((s) => s.good !== undefined) ? { good: sum(list, (s) => s.good ?? 0), ...(targets ? { goodputTargets: targets } : {}) } : {};
  const hist = Object.fromEntries(SERIES.map((k) => [k, mergeEncoded(list.map((s) => s[k]))])) as Record<StreamSeries, FlowStreamStats[StreamSeries]>;
  // Prompt tokens when any shard counted them (older reports did not); the cache hit rate over them when any shard's answers told cached tokens.
  const told = list.filter((s) => s.cachedPromptTokens !== undefined);
  const promptTokens = sum(list, (s) => s.promptTokens ?? 0);
  const prompt = list.some((s) => s.promptTokens !== undefined) ? { promptTokens } : {};
  const cache = told.length
    ? prefixCacheOf(
        promptTokens,
        sum(told, (s) => s.cachedPromptTokens!),
      )
    : {};
  return {
    requests: sum(list, (s) => s.requests),
    broken: sum(list, (s) => s.broken),
    tokens: sum(list, (s) => s.tokens),
    ...prompt,
    ...good,
    ...cache,
    ...hist,
  };
}

/** `windows.streams` of every input, each moved by its shift, added per merged window 0 … n − 1; undefined: no input has any. */
export function mergeStreamWindows(
  list: readonly (Record<string, StreamWindows> | undefined)[],
  shifts: readonly number[],
  n: number,
): Record<string, StreamWindows> | undefined {
  const present = list.filter((s) => s !== undefined);
  if (!present.length) return undefined;
  const out: Record<string, StreamWindows> = {};
  for (const name of [...new Set(present.flatMap((s) => Object.keys(s)))].sort()) {
    const ws = list.map((s) => s?.[name]);
    const col = (pick: (w: StreamWindows) => readonly number[] | undefined) =>
      Array.from({ length: n }, (_, k) => ws.reduce((a, w, i) => a + at(w ? pick(w) : undefined, shifts[i]!, k, 0), 0));
    // The times at the finest scale of the inputs (an older report's whole ms join 0.01 ms ones).
    const timeScale = Math.max(1, ...ws.map((w) => w?.timeScale ?? 1));
    const hist = Object.fromEntries(
      SERIES.map((k) => [
        k,
        mergeWindowSeries(
          ws.map((w) => w?.[k]),
          shifts,
          n,
          ws.map((w) => (w ? windowScale(w, k) : 1)),
        ),
      ]),
    ) as Record<StreamSeries, string[]>;
    out[name] = {
      ...(timeScale === 1 ? {} : { timeScale }),
      ...hist,
      requests: col((w) => w.requests),
      tokens: col((w) => w.tokens),
      ...(ws.some((w) => w?.good) ? { good: col((w) => w.good) } : {}),
    };
  }
  return out;
}
