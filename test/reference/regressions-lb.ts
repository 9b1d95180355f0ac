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
    config: { ...LB, seed: 1, workers: 2, workersMin: 0, workerConcurrency: 1, idleTimeoutMs: 0, scaler: { type: 'REQUEST_COUNT', value: 2 } },
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
    config: { ...LB, seed: 1, workers: 2, workersMin: 0, workerConcurrency: 2, idleTimeoutMs: 0 },
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
    // Built: a load-balancing endpoint's workers have an idle timer. w1 ends A at 1000 ms and is
    // idle above the target (1: B runs on w2); its timeout comes at 6000 ms and it stops at the end of that ms.
    name: 'an idle worker above the REQUEST_COUNT target stops at its idle timeout, not at once',
    config: {
      ...LB,
      seed: 1,
      workers: 2,
      workersMin: 0,
      workerConcurrency: 1,
      coldStartMs: 0,
      idleTimeoutMs: 5000,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
    },
    cmds: [
      { t: 'lb', sim: { durationMs: 1000 } },
      { t: 'lb', sim: { durationMs: 10_000 } },
      { t: 'advance', ms: 1000 },
      { t: 'advance', ms: 4999 },
      { t: 'health' },
      { t: 'advance', ms: 2 },
      { t: 'health' },
    ],
  },
  {
    // Built: w1 takes A and B (2 a worker), REQUEST_COUNT 1 wants 2 workers and w2 starts idle at 0
    // ms. Its timeout comes at 5000 ms while the target still wants it; at 10 000 ms A ends, the
    // target falls to 1, and w2, past its timeout, stops at the end of that ms.
    name: 'a worker idle past its timeout while the target wanted it stops in the ms the target falls',
    config: {
      ...LB,
      seed: 1,
      workers: 2,
      workersMin: 0,
      workerConcurrency: 2,
      coldStartMs: 0,
      idleTimeoutMs: 5000,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
    },
    cmds: [
      { t: 'lb', sim: { durationMs: 10_000 } },
      { t: 'lb', sim: { durationMs: 20_000 } },
      { t: 'advance', ms: 9999 },
      { t: 'health' },
      { t: 'advance', ms: 2 },
      { t: 'health' },
    ],
  },
  {
    // As found: w2 went idle past its timeout while kept (workersMin 1, w1 stopped first, the
    // oldest idle); `strict-resume ep-w1` starts w1 again, the workers are above the target, and
    // w2 stops at the end of that ms. The core looked at idle timeouts only when a worker went idle.
    name: 'a strict-resume start puts the workers above the target: a worker idle past its timeout stops',
    config: { ...LB, seed: 1, workers: 2, workersMin: 1, workerConcurrency: 1, coldStartMs: 119_999 },
    cmds: [
      { t: 'lb', sim: { durationMs: 119_999 } },
      { t: 'lb', sim: { durationMs: 0 } },
      { t: 'advance', ms: 330_001 },
      { t: 'lb', sim: { durationMs: 0 }, affinity: { mode: 'strict-resume', worker: 2 } },
      { t: 'advance', ms: 0 },
      { t: 'health' },
      { t: 'advance', ms: 119_999 },
      { t: 'lb', sim: { durationMs: 0 }, n: 3 },
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
