/**
 * Each streaming flow's streamed answers (RunResult `flows.*.stream`, `windows.streams`): time to
 * first token, inter-token latency, time per output token and output tokens/s per request, as
 * whole-run and per-window HDR histograms, and requests, tokens and good requests per window. One
 * call per request whose stream ended (a run-stream session, a streamed chat answer), with the
 * times its content chunks arrived; every sample and count of it goes to the window of its last
 * chunk. Only streaming flows are registered: a flow without streams pays nothing. The times are
 * kept to 0.01 ms (report/stream-scale.ts: a token every ~6 ms makes whole ms a 15 % step), from
 * chunk times as they came: the in-process feed's exact virtual ms, the HTTP target's
 * performance.now() readings.
 */
import { encode } from '../../report/histogram.js';
import type { FlowStreamStats, StreamSeries, StreamWindows } from '../../report/run-result.js';
import { isStreamTime, STREAM_TIME_SCALE } from '../../report/stream-scale.js';
import { prefixCacheOf } from '../../report/prefix-cache-rate.js';
import { fold } from './fold-windows.js';
import { Series } from './job-times.js';
import { WindowIndex } from './window-index.js';

/** A flow's goodput targets: a good request's TTFT and TPOT are at most these (either may be unset). */
export interface GoodputTargets {
  ttftMs?: number;
  tpotMs?: number;
}

const SERIES: readonly StreamSeries[] = ['ttftMs', 'itlMs', 'tpotMs', 'tokensPerS'];

/** One streaming flow's accumulator (its sessions call `ended` once per streamed request). */
export class FlowStreams {
  private readonly series: Record<StreamSeries, Series>;
  private readonly index: WindowIndex;
  private requests = 0;
  private broken = 0;
  private tokens = 0;
  private promptTokens = 0;
  private good = 0;
  /** Prompt tokens the answers' usage told were served from the prefix cache (-1: none told). */
  private cachedTokens = -1;
  private readonly perWindow = { requests: [] as number[], tokens: [] as number[], good: [] as number[] };

  constructor(
    windowMs: number,
    private readonly goodput: GoodputTargets | undefined,
  ) {
    // The times at 0.01 ms (a token every few ms), tokens/s per request in whole tokens/s.
    this.series = Object.fromEntries(SERIES.map((k) => [k, new Series(windowMs, isStreamTime(k) ? STREAM_TIME_SCALE : 1)])) as Record<StreamSeries, Series>;
    this.index = new WindowIndex(windowMs);
  }

  /**
   * A request's stream ended. `atMs`: when each content chunk arrived (ascending, target clock,
   * ms with their fraction: the times are kept to 0.01 ms);
   * `usageTokens`: the stream's `usage.completion_tokens`, if it carried one; `broken`: it broke
   * before its end, or never started (refused, failed: no content at all). A request without
   * content counts as a request that was not good, in the window of `endMs`, and has no times.
   */
  ended(intendedMs: number, atMs: readonly number[], usageTokens: number | undefined, broken: boolean, endMs?: number): void {
    const n = atMs.length;
    if (n === 0) {
      const w = this.index.of(endMs ?? intendedMs);
      this.requests++;
      add(this.perWindow.requests, w, 1);
      if (broken) this.broken++;
      return;
    }
    const first = atMs[0]!;
    const last = atMs[n - 1]!;
    const tokens = usageTokens ?? n;
    const s = this.series;
    const ttft = first - intendedMs;
    s.ttftMs.add(last, ttft);
    // Equal gaps (to the recorded 0.01 ms) in a row go in at once: a batching worker's tokens come
    // at one gap for as long as its batch does not change.
    for (let i = 1; i < n; ) {
      const g = atMs[i]! - atMs[i - 1]!;
      const v = Math.round(g * STREAM_TIME_SCALE);
      let j = i + 1;
      while (j < n && Math.round((atMs[j]! - atMs[j - 1]!) * STREAM_TIME_SCALE) === v) j++;
      s.itlMs.add(last, g, j - i);
      i = j;
    }
    const tpot = tokens >= 2 ? (last - first) / (tokens - 1) : undefined;
    if (tpot !== undefined) s.tpotMs.add(last, tpot);
    if (last > intendedMs) s.tokensPerS.add(last, (tokens * 1000) / (last - intendedMs));
    const w = this.index.of(last);
    const p = this.perWindow;
    this.requests++;
    add(p.requests, w, 1);
    this.tokens += tokens;
    add(p.tokens, w, tokens);
    if (broken) this.broken++;
    const g = this.goodput;
    if (g && !broken && (g.ttftMs === undefined || ttft <= g.ttftMs) && (g.tpotMs === undefined || tpot === undefined || tpot <= g.tpotMs)) {
      this.good++;
      add(p.good, w, 1);
    }
  }

  /** A request went out carrying `promptTokens` (contract/prompt-tokens.ts), counted whatever its answer. */
  sent(promptTokens: number): void {
    this.promptTokens += promptTokens;
  }

  /**
   * A streamed answer's usage told its prompt tokens served from the server's prefix cache
   * (`prompt_tokens_details.cached_tokens`): the flow's prefix cache hit rate is their sum over
   * the prompt tokens sent (vLLM's prefix_cache_hits / prefix_cache_queries).
   */
  cached(cachedTokens: number): void {
    this.cachedTokens = Math.max(0, this.cachedTokens) + cachedTokens;
  }

  stats(): FlowStreamStats {
    const g = this.goodput;
    return {
      requests: this.requests,
      broken: this.broken,
      tokens: this.tokens,
      promptTokens: this.promptTokens,
      ...(g ? { good: this.good, goodputTargets: { ...g } } : {}),
      ...(this.cachedTokens >= 0 ? prefixCacheOf(this.promptTokens, this.cachedTokens) : {}),
      ...(Object.fromEntries(SERIES.map((k) => [k, encode(this.series[k].whole.hdr(), this.series[k].whole.scale)])) as Pick<FlowStreamStats, StreamSeries>),
    };
  }

  windows(n: number): StreamWindows {
    const p = this.perWindow;
    const out = Object.fromEntries(SERIES.map((k) => [k, this.series[k].windows.result(n)])) as Record<StreamSeries, string[]>;
    return {
      timeScale: STREAM_TIME_SCALE,
      ...out,
      requests: fold(p.requests, n),
      tokens: fold(p.tokens, n),
      ...(this.goodput ? { good: fold(p.good, n) } : {}),
    };
  }
}

function add(a: number[], i: number, v: number): void {
  while (a.length <= i) a.push(0);
  a[i]! += v;
}

/** The streaming flows of a run, in the order registered. */
export class StreamMetrics {
  private readonly flows = new Map<string, FlowStreams>();

  constructor(readonly windowMs: number) {}

  /** Registers a streaming flow. */
  flow(name: string, goodput: GoodputTargets | undefined): FlowStreams {
    const f = new FlowStreams(this.windowMs, goodput);
    this.flows.set(name, f);
    return f;
  }

  /** The flow's whole-run section; undefined: not a streaming flow. */
  stats(name: string): FlowStreamStats | undefined {
    return this.flows.get(name)?.stats();
  }

  /** Windows 0 to `n - 1` of every streaming flow; undefined: none. */
  windowsOf(n: number): Record<string, StreamWindows> | undefined {
    if (this.flows.size === 0) return undefined;
    return Object.fromEntries([...this.flows].map(([name, f]) => [name, f.windows(n)]));
  }
}
