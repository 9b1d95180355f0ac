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

export const REGRESSIONS: Regression[] = [
  {
    // /status?ttl=0 on a compacted result removed it before its body was built: no workerId.
    name: 'status?ttl=0 on a completed job still names its worker',
    config: { seed: 1, workers: 1 },
    cmds: [{ t: 'run', sync: false }, { t: 'advance', ms: 1000 }, { t: 'status', pick: 0, ttl: 0 }, { t: 'status-sync', pick: 0 }],
  },
  {
    // Known bug A: the ttl sweep looks for the job before it is in the table, so it never expires.
    name: 'a lone job with the default ttl is removed 24 h after submission',
    knownBug: 'A',
    config: { seed: 1, workers: 0 },
    cmds: [{ t: 'run', sync: false }, { t: 'advance', ms: 172_800_000 }],
  },
  {
    // Known bug C: the /run refused by queue throttling used up the second token of the budget.
    name: 'a /run refused by queue throttling uses up no rate budget',
    knownBug: 'C',
    config: { seed: 1, workers: 0, limits: { queueMin: 0, operations: { run: { rate: 2 } } } },
    cmds: [{ t: 'run', sync: false }, { t: 'run', sync: false, sim: {}, n: 2 }],
  },
];
