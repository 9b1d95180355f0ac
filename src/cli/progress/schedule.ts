/**
 * When `loadlab run` shows its progress line (line.ts), decided from the wall clock alone:
 *
 * - `tty` (stderr is a terminal, not under CI): redrawn in place, at most 5 times a second;
 * - `plain` (stderr is a file or a pipe, not under CI): one plain line every 10 s of wall time;
 * - `off` under CI (`CI` set, and not empty, `false` or `0`): CI logs stay clean; the summary and
 *   the reports say everything at the end.
 */
export type ProgressMode = 'tty' | 'plain' | 'off';

/** Least wall time between two redraws on a terminal (5 per second). */
export const REDRAW_MS = 200;
/** Wall time between two plain lines. */
export const PLAIN_EVERY_MS = 10_000;

export function progressMode(isTTY: boolean, ci: string | undefined): ProgressMode {
  const underCi = ci !== undefined && ci !== '' && ci.toLowerCase() !== 'false' && ci !== '0';
  if (underCi) return 'off';
  return isTTY ? 'tty' : 'plain';
}

/** Says, for each progress report (its wall time since the run started), whether to show it. */
export class ProgressSchedule {
  private nextMs: number;

  constructor(readonly mode: ProgressMode) {
    this.nextMs = mode === 'tty' ? REDRAW_MS : PLAIN_EVERY_MS;
  }

  due(wallMs: number): boolean {
    if (this.mode === 'off' || wallMs < this.nextMs) return false;
    // A plain line at each multiple of 10 s that passed (one, however late the report came).
    this.nextMs = this.mode === 'tty' ? wallMs + REDRAW_MS : (Math.floor(wallMs / PLAIN_EVERY_MS) + 1) * PLAIN_EVERY_MS;
    return true;
  }
}
