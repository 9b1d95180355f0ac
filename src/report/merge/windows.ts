/**
 * The per-window histograms and columns (RunResult.windows) on the merged wall-time axis:
 * response-time and job-time histograms add exactly per window, request counts add, the endpoint
 * view is taken from one shard per window (endpoint-windows.ts).
 */
import type { FlowWindows, JobSeries, Windows } from '../run-result.js';
import { at, mergedLength } from './alignment.js';
import { keysOf } from './counters.js';
import { mergeEndpointWindows } from './endpoint-windows.js';
import { mergeWindowSeries } from './histograms.js';
import { mergeStreamWindows } from './streams.js';

const JOB_SERIES: readonly JobSeries[] = ['turnaroundMs', 'queueDelayMs', 'executionMs', 'coldStartMs'];

/** Windows an input holds: its longest series. */
function lengthOf(w: Windows): number {
  const lens = [...Object.values(w.responseMs), ...Object.values(w.requests ?? {})].map((a) => a.length);
  for (const f of Object.values(w.flows)) for (const s of JOB_SERIES) if (f[s]) lens.push(f[s].length);
  for (const s of Object.values(w.streams ?? {})) lens.push(s.tokens.length);
  return Math.max(0, ...lens, w.endpoint?.queueLength.length ?? 0);
}

export function mergeWindows(list: readonly Windows[], shifts: readonly number[]): Windows {
  const n = mergedLength(list.map(lengthOf), shifts);
  const responseMs = Object.fromEntries(
    keysOf(list.map((w) => w.responseMs)).map((op) => [
      op,
      mergeWindowSeries(
        list.map((w) => w.responseMs[op]),
        shifts,
        n,
      ),
    ]),
  );
  const flows: Record<string, FlowWindows> = {};
  for (const name of keysOf(list.map((w) => w.flows))) {
    const f = {} as FlowWindows;
    for (const s of JOB_SERIES) {
      const series = list.map((w) => w.flows[name]?.[s]);
      if (series.some((x) => x !== undefined)) f[s] = mergeWindowSeries(series, shifts, n);
    }
    flows[name] = f;
  }
  const reqs = list.map((w) => w.requests ?? {});
  const requests = Object.fromEntries(
    keysOf(reqs).map((op) => [op, Array.from({ length: n }, (_, k) => reqs.reduce((s, r, i) => s + at(r[op], shifts[i]!, k, 0), 0))]),
  );
  const endpoint = mergeEndpointWindows(
    list.map((w) => w.endpoint),
    shifts,
    n,
  );
  const streams = mergeStreamWindows(
    list.map((w) => w.streams),
    shifts,
    n,
  );
  return { windowMs: list[0]!.windowMs, responseMs, flows, requests, ...(endpoint ? { endpoint } : {}), ...(streams ? { streams } : {}) };
}
