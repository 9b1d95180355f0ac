/** What every part of metrics.om reads: the result, where to write, and the grids of its windows. */
import type { RunResult } from '../run-result.js';
import type { OmEmitter } from './om-emitter.js';
import type { WindowGrid } from './window-grid.js';

export interface OmContext {
  r: RunResult;
  e: OmEmitter;
  /** Epoch ms of the run's time 0. */
  startMs: number;
  /** The timeline's windows (10 s): its columns, and the end of the run. */
  tl: WindowGrid;
  /** The per-window histograms' windows (`windows.windowMs`); undefined: the report has none (version 1, blast). */
  win: WindowGrid | undefined;
  /** Where constants (run info, limits, run start and end) are sampled: `win`, else `tl`. */
  steady: WindowGrid;
}

/** "10 s": a grid's window for HELP texts. */
export const per = (g: WindowGrid): string => `per ${g.windowMs / 1000} s window`;
