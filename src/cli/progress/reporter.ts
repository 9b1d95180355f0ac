/**
 * The progress of `loadlab run` on stderr: the line (line.ts) when the schedule (schedule.ts)
 * says so — redrawn in place on a terminal, one plain line at a time otherwise, nothing under CI.
 */
import type { Progress } from '../../load/run-scenario.js';
import { progressLine } from './line.js';
import { ProgressSchedule, progressMode } from './schedule.js';

export interface ProgressOut {
  isTTY?: boolean;
  /** Terminal width; a narrower terminal gets the line cut to fit. */
  columns?: number;
  write(s: string): unknown;
}

export interface ProgressReporter {
  /** For RunOptions.onProgress; undefined under CI. */
  onProgress: ((p: Progress) => void) | undefined;
  /** Erases a line drawn in place (before other output). */
  clear(): void;
}

export function progressReporter(out: ProgressOut, env: NodeJS.ProcessEnv): ProgressReporter {
  const schedule = new ProgressSchedule(progressMode(out.isTTY === true, env.CI));
  let drawn = false;
  const onProgress = (p: Progress): void => {
    if (!schedule.due(p.wallMs)) return;
    const line = progressLine(p);
    if (schedule.mode === 'plain') {
      out.write(`${line}\n`);
      return;
    }
    const width = out.columns && out.columns > 1 ? out.columns - 1 : line.length;
    out.write(`\r${line.slice(0, width)}\x1b[K`);
    drawn = true;
  };
  return {
    onProgress: schedule.mode === 'off' ? undefined : onProgress,
    clear: () => {
      if (drawn) out.write('\r\x1b[K');
      drawn = false;
    },
  };
}
