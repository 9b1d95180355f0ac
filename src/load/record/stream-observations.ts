/**
 * The streamed chat answers of a run against a URL, kept raw for `loadlab calibrate`'s fit of a
 * batching endpoint (RunResult.observed.streams): per answer that completed, when it was sent, its
 * first and last token, its token count, its prompt's tokens and its gaps, and how many of the
 * run's own streams were in flight while it streamed (the fit's fallback for the batch size when
 * `/health` was not read). Bounded: a reservoir of MAX_STREAM_SAMPLES answers, and a step history
 * of the in-flight count of at most 2 × MAX_IN_FLIGHT_STEPS entries.
 */
import type { RandomStream } from '../../lib/random.js';
import type { ObservedEndpoint } from '../../report/run-result.js';
import { Reservoir } from './reservoir.js';

/** Answers kept (a uniform sample of them when more completed). */
export const MAX_STREAM_SAMPLES = 10_000;
/**
 * Changes of the in-flight count remembered. An answer that streamed over more changes than this
 * (tens of thousands of sends and ends under one stream) averages from the oldest one kept.
 */
export const MAX_IN_FLIGHT_STEPS = 50_000;

/**
 * A row: `sentMs` (run clock), `firstMs` and `lastMs` (its first and last content chunk, ms after
 * the send), `tokens` (usage.completion_tokens, else chunks), `chunks`, `promptTokens`,
 * `maxTokens` (the request's max_tokens; 0: none), `itlP50Ms` and `itlP90Ms` (its gaps between
 * chunks), `inFlight` (the run's streams in flight, itself included, averaged over first to last),
 * `inFlightSent` (the same when it was sent).
 * Times to 0.01 ms: a token every few ms makes whole ms a coarse step.
 */
export const STREAM_COLUMNS = [
  'sentMs',
  'firstMs',
  'lastMs',
  'tokens',
  'chunks',
  'promptTokens',
  'maxTokens',
  'itlP50Ms',
  'itlP90Ms',
  'inFlight',
  'inFlightSent',
] as const;

/** What a completed streamed answer tells (StreamObservations.ended). */
export interface StreamSeen {
  /** When its request went out (run clock, ms). */
  sentMs: number;
  /** When each content chunk arrived (run clock, ascending). */
  atMs: readonly number[];
  usageTokens: number | undefined;
  promptTokens: number;
  /** max_tokens of the request; undefined: none. */
  maxTokens: number | undefined;
}

export class StreamObservations {
  /** The completed answers (a uniform sample of MAX_STREAM_SAMPLES of them when more completed). */
  private readonly rows: Reservoir<number[]>;
  /** The in-flight count's steps: from `stepAt[i]` on it was `stepCount[i]`, with `stepArea[i]` (count × ms) before. */
  private stepAt: number[] = [0];
  private stepCount: number[] = [0];
  private stepArea: number[] = [0];

  /** `rng`: draws which answers stay once more than MAX_STREAM_SAMPLES completed. */
  constructor(rng: RandomStream) {
    this.rows = new Reservoir(MAX_STREAM_SAMPLES, rng);
  }

  /** A streamed request went out at `atMs` (run clock). */
  opened(atMs: number): void {
    this.step(atMs, 1);
  }

  /** Its answer ended at `atMs`, whatever the outcome (each `opened` gets one `closed`). */
  closed(atMs: number): void {
    this.step(atMs, -1);
  }

  /** A completed stream (at least one content chunk, not broken); call before `closed`. */
  ended(s: StreamSeen): void {
    const n = s.atMs.length;
    if (n === 0) return;
    const first = s.atMs[0]!;
    const last = s.atMs[n - 1]!;
    const gaps: number[] = [];
    for (let i = 1; i < n; i++) gaps.push(s.atMs[i]! - s.atMs[i - 1]!);
    gaps.sort((a, b) => a - b);
    const row = [
      round2(s.sentMs),
      round2(first - s.sentMs),
      round2(last - s.sentMs),
      s.usageTokens ?? n,
      n,
      s.promptTokens,
      s.maxTokens ?? 0,
      gaps.length ? round2(pick(gaps, 0.5)) : 0,
      gaps.length ? round2(pick(gaps, 0.9)) : 0,
      round2(this.meanInFlight(first, last)),
      this.stepCount[this.stepAt0(s.sentMs)]!,
    ];
    this.rows.add(row);
  }

  /** Undefined: no streamed answer completed. */
  result(): NonNullable<ObservedEndpoint['streams']> | undefined {
    if (this.rows.count === 0) return undefined;
    return { count: this.rows.count, columns: [...STREAM_COLUMNS], rows: this.rows.items() };
  }

  private step(atMs: number, d: number): void {
    const i = this.stepAt.length - 1;
    const t = Math.max(atMs, this.stepAt[i]!);
    const area = this.stepArea[i]! + this.stepCount[i]! * (t - this.stepAt[i]!);
    this.stepAt.push(t);
    this.stepCount.push(Math.max(0, this.stepCount[i]! + d));
    this.stepArea.push(area);
    if (this.stepAt.length > 2 * MAX_IN_FLIGHT_STEPS) {
      this.stepAt = this.stepAt.slice(-MAX_IN_FLIGHT_STEPS);
      this.stepCount = this.stepCount.slice(-MAX_IN_FLIGHT_STEPS);
      this.stepArea = this.stepArea.slice(-MAX_IN_FLIGHT_STEPS);
    }
  }

  /** The last step at or before `t` (the oldest kept when none). */
  private stepAt0(t: number): number {
    const at = this.stepAt;
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (at[m]! <= t) lo = m;
      else hi = m - 1;
    }
    return lo;
  }

  /** The area under the in-flight count up to `t` (count × ms), from the oldest step kept. */
  private areaAt(t: number): number {
    if (t <= this.stepAt[0]!) return this.stepArea[0]!;
    const i = this.stepAt0(t);
    return this.stepArea[i]! + this.stepCount[i]! * (t - this.stepAt[i]!);
  }

  /** Streams in flight on average from `from` to `to` (ms); at one instant, the count then. */
  private meanInFlight(from: number, to: number): number {
    const a = Math.max(from, this.stepAt[0]!);
    if (to <= a) return Math.max(1, this.stepCount[this.stepCount.length - 1]!);
    return (this.areaAt(to) - this.areaAt(a)) / (to - a);
  }
}

/** The q-quantile of ascending `xs` (nearest rank below: a gap that happened). */
function pick(xs: readonly number[], q: number): number {
  return xs[Math.min(xs.length - 1, Math.floor(q * (xs.length - 1) + 0.5))]!;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
