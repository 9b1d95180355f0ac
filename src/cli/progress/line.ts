/**
 * The progress line of `loadlab run`: one line of at most 99 characters (it fits a terminal of
 * 100 columns without wrapping), pure — Progress in, text out.
 *
 *   traffic  43%  wall 25s  ETA 33s  requests 1.2M  429s 12.3k  queue 1 234  workers 12
 *
 * - phase: `traffic` until the scenario's durationMs, then `drain`;
 * - %: of the traffic phase, durationMs (virtual in-process and lockstep, wall against a URL);
 *   100 in the drain;
 * - wall: wall time since the run started;
 * - ETA: in the traffic phase, wall time left to durationMs at the run's mean pace so far (run ms
 *   per wall ms), `--` for the first 3 s of wall time, when the pace is not known yet. In the
 *   drain, `≤` the time left to durationMs + drainMs: the drain ends as soon as every session
 *   has ended, often well before;
 * - requests and 429s so far; queue and workers (running) as the target sees them, `--` when it
 *   cannot see them (an HTTP target without /health samples, lockstep).
 */
import type { Progress } from '../../load/run-scenario.js';

/** Wall time before which the pace (and so the ETA) is not meaningful. */
export const ETA_AFTER_WALL_MS = 3000;
/** A line longer than this is cut: it fits 100 columns. */
export const MAX_WIDTH = 99;

export function progressLine(p: Progress): string {
  const pct = p.phase === 'drain' || p.durationMs <= 0 ? 100 : Math.min(100, Math.max(0, Math.floor((100 * p.nowMs) / p.durationMs)));
  return [
    `${p.phase.padEnd(7)} ${`${pct}%`.padStart(4)}`,
    `wall ${duration(p.wallMs)}`,
    `ETA ${eta(p)}`,
    `requests ${count(p.requests)}`,
    `429s ${count(p.limited)}`,
    `queue ${p.queueDepth === undefined ? '--' : count(p.queueDepth)}`,
    `workers ${p.workers === undefined ? '--' : count(p.workers)}`,
  ]
    .join('  ')
    .slice(0, MAX_WIDTH);
}

/** Wall time left at the mean pace so far (in the drain: at most), or `--` while that is not known. */
export function eta(p: Progress): string {
  if (p.wallMs < ETA_AFTER_WALL_MS || p.nowMs <= 0) return '--';
  const drain = p.phase === 'drain';
  const left = Math.max(0, (drain ? p.durationMs + p.drainMs : p.durationMs) - p.nowMs);
  return `${drain ? '≤' : ''}${duration((left * p.wallMs) / p.nowMs)}`;
}

/** `42s`, `4m05s`, `1h02m` (rounded down); `>999h` beyond. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s >= 1000 * 3600) return '>999h';
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** At most 6 characters: `9 999`, `123.4k`, `12.3M`, `1.2G` (rounded down, so never `1000.0k`). */
export function count(n: number): string {
  if (n < 10_000) return n >= 1000 ? `${Math.floor(n / 1000)} ${String(n % 1000).padStart(3, '0')}` : String(n);
  for (const [unit, size] of [
    ['k', 1e3],
    ['M', 1e6],
    ['G', 1e9],
  ] as const) {
    if (n < size * 1000 || unit === 'G') return `${(Math.floor(n / (size / 10)) / 10).toFixed(1)}${unit}`;
  }
  return String(n);
}
