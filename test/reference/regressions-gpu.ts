/**
 * Sequences of GPU types in priority order (endpoint.gpus, hostCapacity, llm.engine.byGpu), built
 * to hold the core to the model where the rules are plain (model-hosts.ts), replayed as they are on
 * every run. gpu-model.test.ts checks the model's own answers to them against the rules.
 */
import type { Regression } from './regressions-batching.js';

export const GPU_REGRESSIONS: Regression[] = [
  {
    // Room for one H100-PRO: of the two workers kept, the second starts on A100.
    name: 'a worker with no room on the first GPU type starts on the second',
    config: { seed: 1, workers: 2, coldStartMs: 1000, gpus: ['H100-PRO', 'A100'], hostCapacity: { 'H100-PRO': 1 } },
    cmds: [
      { t: 'health' },
      { t: 'run', sync: false, sim: { durationMs: 2000 }, n: 2 },
      { t: 'advance', ms: 1000 },
      { t: 'health' },
      { t: 'advance', ms: 2000 },
    ],
  },
  {
    // No room on A100 at all, one H100-PRO place: the second worker waits throttled (not live, no
    // cold start drawn). At 5.5 s the first takes the second job: REQUEST_COUNT's target falls to
    // 1 and the waiting worker is withdrawn at the end of that ms; the first stops at 10.5 s.
    name: "with no room on any GPU type a worker waits throttled until REQUEST_COUNT's target no longer wants it",
    config: {
      seed: 1,
      workers: 2,
      workersMin: 0,
      coldStartMs: 500,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
      gpus: ['H100-PRO', 'A100'],
      hostCapacity: { 'H100-PRO': 1, A100: 0 },
    },
    cmds: [
      { t: 'run', sync: false, sim: { durationMs: 5000 }, n: 2 },
      { t: 'advance', ms: 1 },
      { t: 'health' },
      { t: 'advance', ms: 5499 },
      { t: 'health' },
      { t: 'advance', ms: 1 },
      { t: 'health' },
      { t: 'advance', ms: 5000 },
      { t: 'health' },
    ],
  },
  {
    // The same with QUEUE_DELAY and uniform cold starts: the waiting workers draw no cold start and
    // are withdrawn when the placed worker's idle timeout comes, before it stops.
    name: "QUEUE_DELAY withdraws the waiting workers when an idle worker's timeout comes",
    config: {
      seed: 3,
      workers: 3,
      workersMin: 0,
      coldStartMs: { dist: 'uniform', minMs: 100, maxMs: 900 },
      idleTimeoutMs: 1000,
      scaler: { type: 'QUEUE_DELAY', value: 1 },
      gpus: ['L4', 'A100'],
      hostCapacity: { L4: 0, A100: 1 },
    },
    cmds: [
      { t: 'run', sync: false, sim: { durationMs: 3000 }, n: 3 },
      { t: 'advance', ms: 1500 },
      { t: 'health' },
      { t: 'advance', ms: 12_000 },
      { t: 'run', sync: false, sim: { durationMs: 1000 } },
      { t: 'advance', ms: 3000 },
      { t: 'health' },
    ],
  },
  {
    // Two workers kept, one H100-PRO place; on A100 the engine decodes in 2 ms, not 1. The first
    // stream goes to the newest idle worker (A100): tokens at 2, 4, 6, 8 ms; the second to the
    // H100-PRO one: 1, 2, 3, 4 ms.
    name: "an engine worker on the fallback GPU type runs that type's engine (a slower decode)",
    config: {
      seed: 1,
      workers: 2,
      gpus: ['H100-PRO', 'A100'],
      hostCapacity: { 'H100-PRO': 1 },
      llm: { engine: { decodeMs: 1, byGpu: { A100: { decodeMs: 2 } } }, outputTokens: 4 },
    },
    cmds: [{ t: 'openai', stream: true }, { t: 'openai', stream: true }, { t: 'advance', ms: 20 }, { t: 'health' }],
  },
  {
    // Found by the random cases: the A100 worker's start runs past initTimeoutMs; the job waiting
    // wants workers that find no place. A purge empties the queue: REQUEST_COUNT's target falls to
    // 0 and the waiting workers go at the end of that ms (the core kept them until it next looked).
    name: 'a purge makes REQUEST_COUNT withdraw the workers waiting for a place',
    config: {
      seed: 1,
      workers: 3,
      workersMin: 0,
      coldStartMs: 2,
      idleTimeoutMs: 0,
      initTimeoutMs: 1,
      scaler: { type: 'REQUEST_COUNT', value: 0.5 },
      executionTimeoutMs: 5000,
      retention: { runMs: 0, runsyncMs: 0 },
      gpus: ['H100-PRO', 'L4', 'A100'],
      hostCapacity: { 'H100-PRO': 0, L4: 0, A100: 1 },
    },
    cmds: [{ t: 'run', sync: false, sim: { durationMs: 0 } }, { t: 'advance', ms: 1000 }, { t: 'purge' }, { t: 'advance', ms: 1000 }, { t: 'health' }],
  },
];
