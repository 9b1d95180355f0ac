/**
 * The streamed answers of a run (RunResult.observed.streams) read by column name, each with the
 * batch it streamed in: the sequences in flight per worker from its first token to its last.
 *
 * - From `/health`, when its answers cover that span: `jobs.inProgress / workers.running`
 *   (jobs held per worker holding any), averaged over the span by time. It is an average over
 *   the workers: with 3 jobs on 2 workers one holds 2 and the other 1, and both read 1.5.
 * - Else from the run's own count of its streams in flight over the span, divided by the workers
 *   status bodies showed busy at its middle (a `/run` flow names them), else by one. Streams
 *   queued at the endpoint count as in flight, so a full endpoint reads too high.
 */
import { partitionPoint } from '../lib/partition-point.js';
import type { ObservedEndpoint } from '../report/run-result.js';
import type { HealthRow } from './health-rows.js';

/**
 * A median gap between chunks below this (ms): the chunks arrived in one piece, buffered on the
 * way (a proxy, or a server that did not send them live); its gaps and first token say nothing of
 * the engine. Tokens a few ms apart are far above it.
 */
export const BUNCHED_GAP_MS = 0.1;

export interface StreamRow {
  /** Send (run clock), first and last content chunk (ms after the send). */
  sentMs: number;
  firstMs: number;
  lastMs: number;
  tokens: number;
  chunks: number;
  promptTokens: number;
  /** The request's max_tokens; 0: none. */
  maxTokens: number;
  /** Median gap per token (ms): the median gap between chunks, per token when chunks carried several. */
  itlMs: number;
  /** Its chunks arrived in one piece (BUNCHED_GAP_MS). */
  bunched: boolean;
  /** Sequences in flight per worker while it streamed (see above). */
  perWorker: number;
  /**
   * Sequences per worker when it joined, itself included: the run's own streams in flight at its
   * send over the workers ready then (/health's idle and running, else those status bodies showed
   * busy, else one). Exact for the run's own traffic in a closed loop, where the stream before it
   * ended first; an average over the workers like `perWorker`.
   */
  joinPerWorker: number;
  /** It joined an idle engine: no more of the run's streams in flight than workers ready (a job goes to an idle worker first). */
  alone: boolean;
  /** `/health` showed jobs queued between its send and its first token; undefined: no answer covers it. */
  queued: boolean | undefined;
}

export interface StreamRows {
  rows: StreamRow[];
  /** Completed streams the run saw (rows may be a sample of them). */
  count: number;
  /** Rows whose batch came from `/health`; the others from the run's own count. */
  fromHealth: number;
  /** Rows whose batch came from the run's own count with no worker named busy (one worker assumed). */
  oneWorkerAssumed: number;
}

export function streamRows(obs: ObservedEndpoint, health: readonly HealthRow[]): StreamRows {
  const s = obs.streams;
  if (s === undefined) return { rows: [], count: 0, fromHealth: 0, oneWorkerAssumed: 0 };
  const col = (name: string): number => s.columns.indexOf(name);
  const idx = ['sentMs', 'firstMs', 'lastMs', 'tokens', 'chunks', 'promptTokens', 'maxTokens', 'itlP50Ms', 'inFlight', 'inFlightSent'].map(col);
  const busy = busyWorkers(obs);
  const rows: StreamRow[] = [];
  let fromHealth = 0;
  let oneWorkerAssumed = 0;
  for (const r of s.rows) {
    const [sentMs, firstMs, lastMs, tokens, chunks, promptTokens, maxTokens, itl, inFlight, inFlightSent] = idx.map((i) =>
      i >= 0 ? (r[i] ?? NaN) : NaN,
    ) as number[];
    if (![sentMs, firstMs, lastMs, tokens, chunks, itl].every(Number.isFinite)) continue;
    const from = sentMs! + firstMs!;
    const to = sentMs! + lastMs!;
    let perWorker = meanPerWorker(health, from, to);
    if (perWorker !== undefined) fromHealth++;
    else {
      const workers = busy((from + to) / 2);
      if (workers === 0) oneWorkerAssumed++;
      perWorker = (Number.isFinite(inFlight) ? inFlight! : 1) / Math.max(1, workers);
    }
    const perToken = tokens! > chunks! && chunks! >= 2 ? (itl! * (chunks! - 1)) / (tokens! - 1) : itl!;
    const at = health[rowAt(health, sentMs!)];
    const ready = Math.max(1, at !== undefined ? at.idle + at.running : busy(sentMs!));
    const sentWith = Number.isFinite(inFlightSent) ? inFlightSent! : undefined;
    rows.push({
      sentMs: sentMs!,
      firstMs: firstMs!,
      lastMs: lastMs!,
      tokens: tokens!,
      chunks: chunks!,
      promptTokens: Number.isFinite(promptTokens) ? promptTokens! : 0,
      maxTokens: Number.isFinite(maxTokens) ? maxTokens! : 0,
      itlMs: perToken,
      bunched: chunks! >= 2 && itl! < BUNCHED_GAP_MS,
      perWorker,
      joinPerWorker: sentWith !== undefined ? sentWith / ready : perWorker,
      alone: sentWith !== undefined && sentWith <= ready,
      queued: queuedBetween(health, sentMs!, from),
    });
  }
  return { rows, count: s.count, fromHealth, oneWorkerAssumed };
}

/** Whether the stream's gaps tell an iteration: two gaps or more, its chunks not in one piece. */
export function hasGaps(r: StreamRow): boolean {
  return r.chunks >= 3 && !r.bunched;
}

/** The index of the last row at or before `t`; -1: none. */
function rowAt(rows: readonly HealthRow[], t: number): number {
  return partitionPoint(rows.length, (i) => rows[i]!.atMs <= t) - 1;
}

/** inProgress / running averaged by time over [from, to], over the time a worker was running; undefined: no answer covers it. */
function meanPerWorker(rows: readonly HealthRow[], from: number, to: number): number | undefined {
  let i = rowAt(rows, from);
  if (i < 0 || rows[rows.length - 1]!.atMs < from) return undefined;
  if (to <= from) {
    const r = rows[i]!;
    return r.running > 0 ? r.inProgress / r.running : undefined;
  }
  let sum = 0;
  let weight = 0;
  for (; i < rows.length && rows[i]!.atMs < to; i++) {
    const r = rows[i]!;
    const a = Math.max(from, r.atMs);
    const b = Math.min(to, i + 1 < rows.length ? rows[i + 1]!.atMs : to);
    if (b <= a || r.running === 0) continue;
    sum += (b - a) * (r.inProgress / r.running);
    weight += b - a;
  }
  return weight > 0 ? sum / weight : undefined;
}

/** Whether an answer from the last before `from` to `to` showed jobs queued; undefined: none read by `from`. */
function queuedBetween(rows: readonly HealthRow[], from: number, to: number): boolean | undefined {
  let i = rowAt(rows, from);
  if (i < 0) return undefined;
  for (; i < rows.length && rows[i]!.atMs <= to; i++) if (rows[i]!.inQueue > 0) return true;
  return false;
}

/** Workers whose jobs (first start to last end, from status bodies) span `t`: starts at or before t less ends before t. */
function busyWorkers(obs: ObservedEndpoint): (t: number) => number {
  const c = (name: string): number => obs.workers.columns.indexOf(name);
  // A load-balancing endpoint's workers: from their first request's send.
  const start = c('firstStartMs') >= 0 ? c('firstStartMs') : c('firstSentMs');
  const end = c('lastEndMs');
  const starts = obs.workers.rows
    .map((r) => r[start] ?? NaN)
    .filter(Number.isFinite)
    .sort((x, y) => x - y);
  const ends = obs.workers.rows
    .map((r) => r[end] ?? NaN)
    .filter(Number.isFinite)
    .sort((x, y) => x - y);
  return (t) => partitionPoint(starts.length, (i) => starts[i]! <= t) - partitionPoint(ends.length, (i) => ends[i]! < t);
}
