/**
 * Sequences the differential test once found (shrunk by fast-check), replayed as they are on
 * every run.
 */
import { BATCHING_REGRESSIONS, type Regression } from './regressions-batching.js';
import { GPU_REGRESSIONS } from './regressions-gpu.js';
import { LB_REGRESSIONS } from './regressions-lb.js';

export type { Regression };

export const REGRESSIONS: Regression[] = [
  {
    // /status?ttl=0 on a compacted result removed it before its body was built: no workerId.
    name: 'status?ttl=0 on a completed job still names its worker',
    config: { seed: 1, workers: 1 },
    cmds: [
      { t: 'run', sync: false },
      { t: 'advance', ms: 1000 },
      { t: 'status', pick: 0, ttl: 0 },
      { t: 'status-sync', pick: 0 },
    ],
  },
  {
    // A cancelled job that had crashed (so kept as an object) with a retention of 0 was still
    // readable until the next scheduler step; a compacted one was not.
    name: 'a result with a retention of 0 ms is gone at once, even after a cancel',
    config: { seed: 1, workers: 1, retention: { runMs: 0, runsyncMs: 0 } },
    cmds: [
      { t: 'run', sync: false, sim: { durationMs: 2000, crash: true } },
      { t: 'advance', ms: 1000 },
      { t: 'cancel', pick: 0 },
      { t: 'status', pick: 0 },
    ],
  },
  {
    // The default ttl's sweep timer may be armed after the run started: the run completed first
    // (counted in /health) where a job with any other ttl is removed first.
    name: 'a run ending at the instant of its default ttl deadline loses to the ttl',
    config: { seed: 1, workers: 1 },
    cmds: [
      { t: 'run', sync: false, sim: { durationMs: 86_400_000 }, policy: { executionTimeout: 604_800_000 } },
      { t: 'run', sync: false, sim: { durationMs: 10 } },
      { t: 'advance', ms: 86_400_000 },
      { t: 'health' },
    ],
  },
  {
    name: 'a run ending at the instant of its own ttl deadline loses to the ttl',
    config: { seed: 1, workers: 1 },
    cmds: [{ t: 'run', sync: false, sim: { durationMs: 20_000 }, policy: { ttl: 20_000 } }, { t: 'advance', ms: 20_000 }, { t: 'health' }],
  },
  {
    // /status?ttl= given while the job ran replaced its retention, so a long one extended it.
    name: 'status?ttl before the end never extends retention',
    config: { seed: 1, workers: 1, retention: { runMs: 0, runsyncMs: 0 } },
    cmds: [
      { t: 'run', sync: false },
      { t: 'status', pick: 0, ttl: 86_400_000 },
      { t: 'advance', ms: 1000 },
    ],
  },
  {
    // The ttl sweep once looked for the job before it was in the table, so it never expired.
    name: 'a lone job with the default ttl is removed 24 h after submission',
    config: { seed: 1, workers: 0 },
    cmds: [
      { t: 'run', sync: false },
      { t: 'advance', ms: 172_800_000 },
    ],
  },
  {
    // The /run refused by queue throttling once used up the second token of the budget.
    name: 'a /run refused by queue throttling uses up no rate budget',
    config: { seed: 1, workers: 0, limits: { queueMin: 0, operations: { run: { rate: 2 } } } },
    cmds: [
      { t: 'run', sync: false },
      { t: 'run', sync: false, sim: {}, n: 2 },
    ],
  },
  {
    // QUEUE_DELAY walked the queue from its head while jobs were overdue: a job a crash had just
    // sent back (first in the queue, back since its crash) hid the overdue jobs behind it.
    name: 'QUEUE_DELAY counts overdue jobs queued behind a job a crash sent back',
    config: { seed: 1, workers: 4, workersMin: 0, coldStartMs: 2000, scaler: { type: 'QUEUE_DELAY', value: 1 } },
    cmds: [
      { t: 'run', sync: false, sim: { durationMs: 4000, crash: true } },
      { t: 'advance', ms: 3500 },
      { t: 'run', sync: false, sim: { durationMs: 10_000 }, n: 2 },
      { t: 'advance', ms: 500 },
      { t: 'advance', ms: 500 },
      { t: 'health' },
    ],
  },
  ...BATCHING_REGRESSIONS,
  ...GPU_REGRESSIONS,
  ...LB_REGRESSIONS,
];
