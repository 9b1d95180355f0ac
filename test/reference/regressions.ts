/**
 * Sequences the differential test once found (shrunk by fast-check), replayed as they are on
 * every run. `knownBug`: the core differs from the model because of a known bug being fixed
 * elsewhere; the case is expected to fail until that fix lands (then drop the mark).
 */
import type { RefCase } from './commands.js';
import type { KnownBug } from './drive.js';

export interface Regression extends RefCase {
  name: string;
  knownBug?: KnownBug;
}

export const REGRESSIONS: Regression[] = [];
