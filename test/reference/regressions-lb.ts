/**
 * Sequences of load-balancing endpoints the differential test found (shrunk by fast-check, or
 * built to show plainly what it pointed at), replayed as they are on every run. lb-model.test.ts
 * checks the model's own answers to them against the rules of docs/endpoint.md.
 */
import type { Regression } from './regressions-batching.js';

const LB = { type: 'load-balancer' as const };

export const LB_REGRESSIONS: Regression[] = [
  {
    // w1 ran a request and stopped. At 1001 ms w2 takes B; C waits (REQUEST_COUNT 2 wants no
    // third worker); D, `strict-resume ep-w1`, starts w1 again, ready at once. The core gave w1
    // to C first and D waited pinned behind it: D answered at 21 001 ms, not 11 001.
    name: 'strict-resume with no cold start: the worker it wakes serves it before the shared wait',
    config: { ...LB, seed: 1, workers: 2, workersMin: 0, workerConcurrency: 1, scaler: { type: 'REQUEST_COUNT', value: 2 } },
    cmds: [
      { t: 'lb', sim: { durationMs: 1000 } },
      { t: 'advance', ms: 1001 },
      { t: 'lb', sim: { durationMs: 10_000 }, n: 2 },
      { t: 'lb', sim: { durationMs: 10_000 }, affinity: { mode: 'strict-resume', worker: 1 } },
      { t: 'health' },
      { t: 'advance', ms: 20_000 },
      { t: 'health' },
    ],
  },
  {
    // As found (workerConcurrency 2): both requests run on the resumed w1 at once, in the other
    // order, so their answers came in the other order.
    name: 'strict-resume with no cold start: its request starts first on the worker it wakes',
    config: { ...LB, seed: 1, workers: 2, workersMin: 0, workerConcurrency: 2 },
    cmds: [
      { t: 'lb', sim: { durationMs: 119_999 } },
      { t: 'advance', ms: 119_999 },
      { t: 'advance', ms: 1000 },
      { t: 'lb', sim: { durationMs: 10_000 }, n: 3 },
      { t: 'lb', sim: { durationMs: 10_000 }, affinity: { mode: 'strict-resume', worker: 1 } },
      { t: 'advance', ms: 119_999 },
    ],
  },
  {
    // workersMin 1 keeps w1 idle; `strict-resume ep-w2` brings w2 back (a cold start of 120 s)
    // and a request takes w1 at 129 999 ms: 3 workers for a target of 2, the idle one above it.
    // The core let an idle w3 stay (billed, with no idle timeout under REQUEST_COUNT) where
    // surplus idle workers stop at the end of the ms.
    name: 'a worker strict-resume starts makes an idle one surplus: it stops at the end of the ms',
    config: { ...LB, seed: 8, workers: 4, workersMin: 2, workerConcurrency: 2, coldStartMs: 120_000, scaler: { type: 'REQUEST_COUNT', value: 2 } },
    cmds: [
      { t: 'lb', sim: { durationMs: 0 }, n: 4 },
      { t: 'lb', sim: { durationMs: 119_999 } },
      { t: 'advance', ms: 119_999 },
      { t: 'advance', ms: 10_000 },
      { t: 'lb', sim: { durationMs: 0 }, affinity: { mode: 'strict-resume', worker: 2 } },
      { t: 'lb', sim: { durationMs: 1000 } },
      { t: 'advance', ms: 1 },
      { t: 'health' },
    ],
  },
  {
    // Built, not found: GPU types are left out of the random cases (lb-arbs.ts). One H100-PRO place:
    // w2, wanted for B, waits for a place; C, `strict ep-w2`, waits for it alone. At 10 s A ends,
    // B takes w1, the target falls to 1 and w2 is withdrawn: C ends affinity_worker_gone then.
    name: 'a strict request waiting for a worker that waits for a GPU place ends affinity_worker_gone when that worker is withdrawn',
    config: {
      ...LB,
      seed: 1,
      workers: 2,
      workersMin: 1,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
      gpus: ['H100-PRO'],
      hostCapacity: { 'H100-PRO': 1 },
    },
    cmds: [
      { t: 'lb', sim: { durationMs: 10_000 } },
      { t: 'lb', sim: { durationMs: 10_000 } },
      { t: 'advance', ms: 1 },
      { t: 'lb', sim: { durationMs: 0 }, affinity: { mode: 'strict', worker: 2 } },
      { t: 'health' },
      { t: 'advance', ms: 10_000 },
      { t: 'health' },
    ],
  },
];
