/**
 * Sequences of jobs per worker and of the batching engine the differential test once found (or
 * that were built to show a disagreement it pointed at), replayed as they are on every run.
 */
import type { RefCase } from './case.js';

export interface Regression extends RefCase {
  name: string;
}

export const BATCHING_REGRESSIONS: Regression[] = [
  {
    // A job held beside a crashing one (workerConcurrency 2) was re-queued with the planned
    // failure its run kept in `error`: its IN_QUEUE body showed that error.
    name: 'a job a crash re-queues from beside the crashing one shows no error while queued',
    config: { seed: 1, workers: 1, workersMin: 1, workerConcurrency: 2, coldStartMs: 2000 },
    cmds: [
      { t: 'advance', ms: 2000 },
      { t: 'run', sync: false, sim: { durationMs: 2000, fail: true } },
      { t: 'run', sync: false, sim: { durationMs: 2000, crash: true } },
      { t: 'advance', ms: 1000 },
    ],
  },
  {
    // The scaler skipped REQUEST_COUNT's look while nothing was queued, taking the target
    // (ceil(jobs in progress / value)) for at most the workers running: not so when a worker holds
    // several jobs. Two jobs on one worker at value 1 want a second worker.
    name: 'REQUEST_COUNT counts every job a worker holds, queue empty or not',
    config: { seed: 1, workers: 2, workersMin: 0, workerConcurrency: 2, scaler: { type: 'REQUEST_COUNT', value: 1 } },
    cmds: [{ t: 'run', sync: false, sim: { durationMs: 5000 }, n: 2 }, { t: 'advance', ms: 1 }, { t: 'health' }],
  },
  {
    // A stopped worker's object serves the next worker started (worker-pool.ts `spare`): its engine
    // still ran the iteration of a job cancelled in it, and the new worker's first job waited for
    // that iteration's end (10 ms) instead of starting at once.
    name: "a new worker's engine starts empty, whatever the worker object ran before",
    config: { seed: 1, workers: 1, workersMin: 0, scaler: { type: 'REQUEST_COUNT', value: 1 }, llm: { engine: { decodeMs: 10 }, outputTokens: 5 } },
    cmds: [
      { t: 'run', sync: false },
      { t: 'advance', ms: 5 },
      { t: 'cancel', pick: 0 },
      { t: 'advance', ms: 1 },
      { t: 'run', sync: false, maxTokens: 1 },
      { t: 'advance', ms: 10 },
    ],
  },
  {
    // The engine stopped at a crash point without counting that iteration's tokens as produced:
    // a stream beside the crashing job was not told its token of that iteration, and got the
    // re-run's first token in its place.
    name: "the tokens out at a worker's crash are streamed before the crash",
    config: {
      seed: 1,
      workers: 1,
      workersMin: 0,
      workerConcurrency: 2,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
      llm: { engine: { decodeMs: 0.25 }, outputTokens: 2 },
    },
    cmds: [
      { t: 'run', sync: false, sim: { crash: true } },
      { t: 'openai', stream: true },
      { t: 'advance', ms: 2 },
    ],
  },
  {
    // Only a job already running when its stream came was followed token by token; one that was
    // queued had its tokens sent only at its end, so its stream had not begun when a crash sent
    // the job back and a cancel ended it (500, where a begun stream ends with an error event).
    name: 'a stream whose job was queued when it came gets each token as it is produced',
    config: {
      seed: 1,
      workers: 1,
      workersMin: 0,
      workerConcurrency: 2,
      coldStartMs: 10,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
      llm: { engine: { decodeMs: 0.25 }, outputTokens: 2 },
    },
    cmds: [
      { t: 'run', sync: false, sim: { crash: true } },
      { t: 'openai', stream: true },
      { t: 'advance', ms: 11 },
      { t: 'cancel', pick: 0 },
    ],
  },
  {
    // A job cancelled at an instant where an iteration began inside a segment (a boundary where
    // nothing else changed) stayed in that iteration; at a segment's first instant it left at
    // once. Both jobs prefill in [0, 1.5), decode in iterations of 1.5 ms; the cancel at 3 leaves
    // the stream's job alone from 3: tokens at 4, 5, 6, 7 (not 4.5, 5.5, …).
    name: 'a job cancelled at an iteration boundary leaves the batch there',
    config: { seed: 1, workers: 1, workerConcurrency: 2, llm: { engine: { decodeMs: 1, perSequenceMs: 0.5 }, outputTokens: 6 } },
    cmds: [
      { t: 'openai', stream: true },
      { t: 'run', sync: false },
      { t: 'advance', ms: 3 },
      { t: 'cancel', pick: 0 },
      { t: 'advance', ms: 20 },
    ],
  },
  {
    // The model's scaler looked when an ended job's result was removed (the core does not: nothing
    // of the queue or the workers changed): at 4000 ms four results went just before the
    // crash-restarted worker was ready, and the model started a second worker for two jobs that
    // reached the QUEUE_DELAY threshold at that instant.
    name: 'removing a result does not make the scaler look',
    config: {
      seed: 841,
      workers: 2,
      workersMin: 1,
      workerConcurrency: 4,
      coldStartMs: 1000,
      scaler: { type: 'QUEUE_DELAY', value: 1 },
      retention: { runMs: 2000, runsyncMs: 0 },
      llm: { ttftMs: 0, interTokenMs: 0, outputTokens: 3 },
    },
    cmds: [
      { t: 'run', sync: false, sim: { crash: true }, policy: { lowPriority: true }, n: 3 },
      { t: 'run', sync: false, sim: { crash: true } },
      { t: 'openai', stream: false },
      { t: 'advance', ms: 676 },
      { t: 'advance', ms: 1563 },
      { t: 'run', sync: false, sim: { crash: true } },
      { t: 'openai', stream: false },
      { t: 'advance', ms: 1761 },
    ],
  },
  {
    // The job whose crash point came at 10 s was removed by its ttl at that instant (a run's end
    // loses to its ttl) before the crash was told: the engine stayed crashed for a job that was
    // gone and never ran again; the stream beside it and every later job hung.
    name: 'a job whose ttl comes at its crash point goes without crashing the worker',
    config: { seed: 1, workers: 1, workersMin: 1, workerConcurrency: 2, coldStartMs: 5000, llm: { engine: { decodeMs: 5000 }, outputTokens: 2 } },
    cmds: [
      { t: 'run', sync: false, sim: { crash: true }, policy: { ttl: 10_000 } },
      { t: 'openai', stream: true },
      { t: 'advance', ms: 10_000 },
      { t: 'health' },
      { t: 'run', sync: false },
      { t: 'advance', ms: 20_000 },
    ],
  },
  {
    // A crash re-queued the worker's other jobs by start time and then submission order: jobs a
    // first crash had sent back (#2 before #1) restarted in the same ms as #2, #1, and the second
    // crash (#6's) put #1 back before #2, so the other worker took #2 where it should take #1.
    name: "a crash re-queues the worker's other jobs in the order they started, within one ms too",
    config: { seed: 1, workers: 2, workerConcurrency: 3 },
    cmds: [
      { t: 'run', sync: false, sim: { durationMs: 2000 }, n: 2 },
      { t: 'run', sync: false, sim: { durationMs: 2000, crash: true } },
      { t: 'advance', ms: 500 },
      { t: 'run', sync: false, sim: { durationMs: 1000, crash: true }, n: 4 },
      { t: 'advance', ms: 2000 },
    ],
  },
  {
    // Built to show the rule of prefix caching's evictions: a sequence that grows into the last free
    // room evicts a free cached block in that iteration, before one ending in it frees its own.
    // 5 blocks: X's block stays cached; A (1 cached block + 1 token) and B (10 tokens) join; A's
    // growth 16 iterations on evicts X's block in B's last iteration; C, X's prompt, finds nothing.
    name: 'prefix caching: growth evicts a free cached block before a sequence ending in that iteration frees its own',
    config: {
      seed: 1,
      workers: 1,
      workersMin: 1,
      workerConcurrency: 4,
      coldStartMs: 0,
      llm: { engine: { decodeMs: 10, perSequenceMs: 2, prefillMsPerToken: 0.5, kvCacheTokens: 80, prefixCaching: true }, outputTokens: 30 },
    },
    cmds: [
      { t: 'openai', stream: true, usage: true, maxTokens: 5, prompt: `${'x'.repeat(64)}qqqq` },
      { t: 'advance', ms: 100 },
      { t: 'openai', stream: true, usage: true, maxTokens: 20, prompt: `${'a'.repeat(64)}qqqq` },
      { t: 'openai', stream: false, maxTokens: 17, prompt: 40 },
      { t: 'advance', ms: 300 },
      { t: 'openai', stream: true, usage: true, maxTokens: 5, prompt: `${'x'.repeat(64)}qqqq` },
      { t: 'openai', stream: false, maxTokens: 5, prompt: `${'a'.repeat(64)}qqqq` },
      { t: 'advance', ms: 300 },
    ],
  },
];
