/**
 * One pass over a token trace's window, row by row (TraceRows: bounded memory), that checks every
 * row and sums up what a plan and the dry run need: rows, skipped rows, span, token totals and
 * percentiles, arrivals per 10 s and the peak per second on the replay clock (after `speed`).
 * Memory grows with the distinct token counts and the length of the span, never with the rows.
 * A scan is kept per file (its size and modification time included) and window.
 */
import { statSync } from 'node:fs';
import { TraceRows, type TraceSource } from './trace-rows.js';

/** How a trace is replayed: its window and `speed` (times are divided by it). */
export interface TraceReplay extends TraceSource {
  speed: number;
}

export interface TraceScan {
  /** Requests in the window (rows with an answer). */
  rows: number;
  /** Rows of the window skipped: their answer is 0 tokens. */
  skipped: number;
  /** First and last request, replay ms from the window's start. */
  firstMs: number;
  lastMs: number;
  promptTokens: number;
  outputTokens: number;
  /** Requests of each prompt length, and of each answer length (tokens → requests). */
  promptCounts: Map<number, number>;
  outputCounts: Map<number, number>;
  /** Requests in each 10 s of the replay clock, from the window's start. */
  perTenSec: number[];
  /** Most requests in any second of the replay clock (1 ms buckets). */
  peakPerSec: number;
}

const scans = new Map<string, TraceScan>();

/** The scan of `r`: from the cache, or read now (throws a TraceError at a bad row, or the file system's error). */
export function scanTrace(r: TraceReplay): TraceScan {
  const st = statSync(r.path);
  const key = JSON.stringify([r.path, r.format, r.columns, r.fromMs, r.toMs, r.speed, st.size, st.mtimeMs]);
  let s = scans.get(key);
  if (!s) scans.set(key, (s = readScan(r)));
  return s;
}

function readScan(r: TraceReplay): TraceScan {
  const rows = new TraceRows(r);
  const s: TraceScan = {
    rows: 0,
    skipped: 0,
    firstMs: 0,
    lastMs: 0,
    promptTokens: 0,
    outputTokens: 0,
    promptCounts: new Map(),
    outputCounts: new Map(),
    perTenSec: [],
    peakPerSec: 0,
  };
  const peak = new PeakPerSec();
  for (let row = rows.next(); row !== undefined; row = rows.next()) {
    const t = row.atMs / r.speed;
    if (s.rows === 0) s.firstMs = t;
    s.lastMs = t;
    s.rows++;
    s.promptTokens += row.promptTokens;
    s.outputTokens += row.outputTokens;
    bump(s.promptCounts, row.promptTokens);
    bump(s.outputCounts, row.outputTokens);
    const m = Math.floor(t / 10_000);
    while (s.perTenSec.length <= m) s.perTenSec.push(0);
    s.perTenSec[m]!++;
    peak.add(t);
  }
  s.skipped = rows.skipped;
  s.peakPerSec = peak.max;
  return s;
}

function bump(m: Map<number, number>, k: number): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** The most times (ascending) in any 1000 ms, counted in whole-ms buckets: a ring of 1000 counts. */
class PeakPerSec {
  max = 0;
  private readonly ring = new Float64Array(1000);
  private sum = 0;
  private at = -1;

  add(t: number): void {
    const b = Math.floor(t);
    if (this.at < 0) this.at = b;
    // Buckets that leave the window as time moves from `at` to `b` are emptied.
    for (let k = this.at + 1; k <= b && k - this.at <= 1000; k++) {
      this.sum -= this.ring[k % 1000]!;
      this.ring[k % 1000] = 0;
    }
    if (b - this.at > 1000) this.ring.fill(0), (this.sum = 0);
    this.at = Math.max(this.at, b);
    this.ring[b % 1000]!++;
    this.sum++;
    if (this.sum > this.max) this.max = this.sum;
  }
}

/** The `q`-quantile (0..1) of counts by value: the least value with at least q of the requests at or below it. */
export function quantileOf(counts: ReadonlyMap<number, number>, q: number): number {
  const keys = [...counts.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const k of keys) total += counts.get(k)!;
  const need = Math.max(1, Math.ceil(q * total));
  let n = 0;
  for (const k of keys) if ((n += counts.get(k)!) >= need) return k;
  return keys[keys.length - 1] ?? 0;
}

/**
 * One loop of a window, replay ms: the window's length when `toMs` is set, else from its start to
 * its last request plus one mean gap between requests (1 ms for a single request), as a replay of
 * timestamps loops.
 */
export function loopPeriodMs(r: Pick<TraceReplay, 'fromMs' | 'toMs' | 'speed'>, s: Pick<TraceScan, 'rows' | 'firstMs' | 'lastMs'>): number {
  if (r.toMs !== undefined) return (r.toMs - r.fromMs) / r.speed;
  return s.lastMs + (s.rows > 1 ? (s.lastMs - s.firstMs) / (s.rows - 1) : 1);
}

/** Why a loop of `periodMs` (loopPeriodMs) cannot be replayed: it must last at least 1 ms, so that each one moves time forward. */
export function loopTooShort(periodMs: number, speed: number): string {
  return `one loop of this trace lasts ${periodMs} ms at speed ${speed}: a looped trace must last at least 1 ms`;
}

/** Requests of the window at replay times below `ms` (a pass that stops there). */
export function countBefore(r: TraceReplay, ms: number): number {
  const rows = new TraceRows(r);
  let n = 0;
  for (let row = rows.next(); row !== undefined && row.atMs / r.speed < ms; row = rows.next()) n++;
  return n;
}
