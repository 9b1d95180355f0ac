/**
 * The differential test's random cases: fast-check arbitraries of endpoint configs and command
 * sequences (case.ts says what they mean). Values cluster on round numbers on purpose, so
 * deadlines, run ends and held requests often fall on the same instant. The token model has its
 * cases in token-model-arbs.ts, jobs per worker and the batching engine theirs in batching-arbs.ts,
 * GPU types and hosts theirs in gpu-arbs.ts (and some scaling, concurrency and engine configs list
 * GPU types now and then), load-balancing endpoints theirs in lb-arbs.ts.
 */
import fc from 'fast-check';
import { batchingCaseArb, concurrencyCaseArb, prefixCaseArb } from './batching-arbs.js';
import { tokenModelCaseArb } from './token-model-arbs.js';
import type { CaseConfig, Cmd, RefCase, SimSpec } from './case.js';
import { REF_OPS, type RefLimitsConfig, type RefOp } from './limits.js';
import { opLimit, opt, pickArb, sec } from './arb-helpers.js';
import { engineHostCaseArb, hostCaseArb, sometimesGpus } from './gpu-arbs.js';
import { lbCaseArb } from './lb-arbs.js';

export { type CaseConfig, type Cmd, coreConfig, modelConfig, type RefCase, requestsOf, type SimSpec, UNKNOWN_PICK } from './case.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// ---------------------------------------------------------------- arbitraries

const limitsArb: fc.Arbitrary<Partial<RefLimitsConfig>> = fc.record(
  {
    window: fc.constantFrom('sliding' as const, 'fixed' as const),
    windowMs: fc.constantFrom(1_000, 5_000, 10_000),
    perWorkerRate: fc.integer({ min: 1, max: 3 }),
    queueMin: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(50)),
    queuePerWorker: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(500)),
    operations: fc.dictionary(fc.constantFrom<RefOp>(...REF_OPS, 'runsync', 'status-sync', 'cancel', 'retry'), opLimit, { maxKeys: 4 }),
  },
  { requiredKeys: [] },
);

export const configArb: fc.Arbitrary<CaseConfig> = fc.record(
  {
    seed: fc.integer({ min: 1, max: 1_000 }),
    workers: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 20 }) }),
    executionTimeoutMs: fc.constantFrom(5_000, 10_000, 30_000),
    retention: fc.record({ runMs: fc.constantFrom(0, 1_000, 5_000, 30_000, 30 * MINUTE), runsyncMs: fc.constantFrom(0, 1_000, 10_000, MINUTE) }),
    limits: limitsArb,
    listen: fc.boolean(),
  },
  { requiredKeys: ['seed', 'workers'] },
);

const durationArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 500, 1_000, 2_000, 5_000, 10_000, 30_000) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(10 * MINUTE, DAY, 3 * DAY, 7 * DAY) },
);

const simArb: fc.Arbitrary<SimSpec> = fc.record(
  { durationMs: durationArb, fail: fc.constantFrom<boolean | string>(true, false, 'boom'), crash: fc.boolean() },
  { requiredKeys: [] },
);

const policyArb = fc.record(
  {
    ttl: fc.oneof(fc.constantFrom(10_000, 20_000, 60_000, DAY, 7 * DAY), fc.integer({ min: 10_000, max: 120_000 })),
    executionTimeout: fc.constantFrom(5_001, 6_000, 10_000, 30_000, 7 * DAY),
    lowPriority: fc.boolean(),
  },
  { requiredKeys: [] },
);

const runArb = fc.record(
  {
    t: fc.constant('run' as const),
    sync: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    sim: simArb,
    policy: policyArb,
    wait: fc.constantFrom(1_000, 5_000, 20_000, 300_000),
  },
  { requiredKeys: ['t', 'sync'] },
);

const burstArb = fc.record({
  t: fc.constant('run' as const),
  sync: fc.constant(false),
  sim: simArb,
  n: fc.integer({ min: 2, max: 60 }),
});

const advanceArb = fc.record({
  t: fc.constant('advance' as const),
  ms: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(0, 500, 1_000, 2_000, 5_000, 10_000) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 10 * MINUTE }) },
    { weight: 1, arbitrary: fc.constantFrom(30 * MINUTE, DAY, 2 * DAY, 8 * DAY) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 8 * DAY }) },
  ),
});

export const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 8, arbitrary: runArb },
  { weight: 1, arbitrary: burstArb },
  {
    weight: 3,
    arbitrary: fc.record(
      { t: fc.constant('status' as const), pick: pickArb, ttl: opt(fc.constantFrom(0, 1_000, 5_000, 60_000, DAY)) },
      { requiredKeys: ['t', 'pick'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      { t: fc.constant('status-sync' as const), pick: pickArb, wait: opt(fc.constantFrom(1_000, 5_000, 60_000)) },
      { requiredKeys: ['t', 'pick'] },
    ),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constantFrom('cancel' as const, 'retry' as const), pick: pickArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('retry' as const), pick: pickArb, failed: fc.constant(true) }) },
  { weight: 2, arbitrary: fc.constantFrom({ t: 'purge' as const }, { t: 'health' as const }) },
  { weight: 7, arbitrary: advanceArb },
);

/**
 * Volume: thousands of jobs, so the core's job table trims and moves its slots (job-table.ts)
 * and its results are compacted by the thousand. No /run rate limit, no queue throttling.
 */
const volumeConfigArb: fc.Arbitrary<CaseConfig> = fc.record({
  seed: fc.integer({ min: 1, max: 1_000 }),
  workers: fc.integer({ min: 1, max: 20 }),
  retention: fc.record({ runMs: fc.constantFrom(0, 1_000, 5_000, 30_000), runsyncMs: fc.constantFrom(0, 1_000) }),
  limits: fc.constant({ queueMin: 1_000_000, operations: { run: { rate: null, concurrency: null } } }),
  listen: fc.boolean(),
});

const bigBurstArb = fc.record({
  t: fc.constant('run' as const),
  sync: fc.constant(false),
  sim: fc.record({ durationMs: fc.constantFrom(0, 1, 10, 1_000), fail: fc.boolean() }, { requiredKeys: ['durationMs'] }),
  n: fc.integer({ min: 500, max: 2_500 }),
});

/**
 * Crowded instants: every time a whole second, short runs and ttls, many failures, crashes,
 * retries and held requests, so run ends, deadlines and held requests keep meeting.
 */
const focusedCmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        t: fc.constant('run' as const),
        sync: fc.boolean(),
        sim: fc.record(
          { durationMs: sec(8), fail: fc.constantFrom<boolean | string>(true, false, 'boom'), crash: fc.boolean() },
          { requiredKeys: ['durationMs'] },
        ),
        policy: fc.record({ ttl: sec(20).map((ms) => ms + 10_000), executionTimeout: fc.constantFrom(6_000), lowPriority: fc.boolean() }, { requiredKeys: [] }),
        wait: sec(6).map((ms) => ms + 1_000),
      },
      { requiredKeys: ['t', 'sync', 'sim'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('status' as const), pick: pickArb, ttl: opt(sec(5)) }, { requiredKeys: ['t', 'pick'] }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('status-sync' as const), pick: pickArb, wait: sec(5).map((ms) => ms + 1_000) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constantFrom('cancel' as const, 'retry' as const), pick: pickArb }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('retry' as const), pick: pickArb, failed: fc.constant(true) }) },
  { weight: 1, arbitrary: fc.constantFrom({ t: 'purge' as const }, { t: 'health' as const }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: sec(6) }) },
);

const focusedConfigArb: fc.Arbitrary<CaseConfig> = fc.record(
  {
    seed: fc.integer({ min: 1, max: 1_000 }),
    workers: fc.integer({ min: 0, max: 3 }),
    executionTimeoutMs: sec(8),
    retention: fc.record({ runMs: sec(10), runsyncMs: sec(5) }),
    limits: limitsArb,
    listen: fc.boolean(),
  },
  { requiredKeys: ['seed', 'workers', 'retention'] },
);

/**
 * Scaling: workersMin below workersMax, cold starts (constant or uniform draws), both scalers and
 * idle timeouts, starts that run past initTimeoutMs (left out half the time: the default, 7 min,
 * which no start here reaches); whole-second cold starts, timeouts and thresholds meet run ends
 * and advances.
 */
const scalingConfigArb: fc.Arbitrary<CaseConfig> = fc
  .record(
    {
      seed: fc.integer({ min: 1, max: 1_000 }),
      workers: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 2, max: 5 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 10 }) }),
      workersMin: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) }),
      coldStartMs: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(0, 500, 1_000, 2_000, 5_000) },
        { weight: 2, arbitrary: fc.integer({ min: 0, max: 8_000 }) },
        {
          weight: 2,
          arbitrary: fc.record({ dist: fc.constant('uniform' as const), minMs: sec(2), maxMs: sec(6) }).map((u) => ({ ...u, maxMs: u.minMs + u.maxMs })),
        },
      ),
      idleTimeoutMs: fc.oneof(fc.constantFrom(0, 1_000, 2_000, 5_000, 10_000), fc.integer({ min: 0, max: 20_000 })),
      // Small enough that some cold starts (crash restarts included) run past it: unhealthy workers.
      initTimeoutMs: fc.oneof(fc.constantFrom(1_000, 2_000, 5_000), fc.integer({ min: 1, max: 8_000 })),
      scaler: fc.oneof(
        fc.record({ type: fc.constant('QUEUE_DELAY' as const), value: fc.constantFrom(0.5, 1, 2, 4, 2.5) }),
        fc.record({ type: fc.constant('REQUEST_COUNT' as const), value: fc.constantFrom(0.5, 1, 2, 3) }),
      ),
      executionTimeoutMs: fc.constantFrom(5_000, 10_000, 30_000),
      retention: fc.record({ runMs: fc.constantFrom(0, 1_000, 5_000, 30_000, 30 * MINUTE), runsyncMs: fc.constantFrom(0, 1_000, 10_000, MINUTE) }),
      listen: fc.boolean(),
    },
    { requiredKeys: ['seed', 'workers', 'workersMin', 'coldStartMs', 'idleTimeoutMs', 'scaler', 'executionTimeoutMs', 'retention'] },
  )
  .map((c) => ({ ...c, workersMin: Math.min(c.workersMin!, c.workers) }))
  .chain(sometimesGpus);

/** Scaling: small bursts of short jobs (some crash), so workers start, go idle and stop. */
const scalingCmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: focusedCmdArb },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('run' as const),
      sync: fc.constant(false),
      sim: fc.record({ durationMs: sec(8), crash: fc.boolean() }, { requiredKeys: ['durationMs'] }),
      n: fc.integer({ min: 2, max: 8 }),
    }),
  },
  { weight: 1, arbitrary: cmdArb },
);

export const caseArb: fc.Arbitrary<RefCase> = fc.oneof(
  { weight: 5, arbitrary: concurrencyCaseArb },
  { weight: 10, arbitrary: batchingCaseArb },
  { weight: 4, arbitrary: prefixCaseArb },
  { weight: 6, arbitrary: tokenModelCaseArb },
  { weight: 15, arbitrary: fc.record({ config: configArb, cmds: fc.array(cmdArb, { minLength: 1, maxLength: 40 }) }) },
  { weight: 4, arbitrary: fc.record({ config: focusedConfigArb, cmds: fc.array(focusedCmdArb, { minLength: 1, maxLength: 40 }) }) },
  { weight: 6, arbitrary: fc.record({ config: scalingConfigArb, cmds: fc.array(scalingCmdArb, { minLength: 10, maxLength: 40 }) }) },
  { weight: 2, arbitrary: hostCaseArb },
  { weight: 2, arbitrary: engineHostCaseArb },
  { weight: 3, arbitrary: lbCaseArb },
  {
    weight: 1,
    arbitrary: fc.record({
      config: volumeConfigArb,
      cmds: fc.array(fc.oneof({ weight: 1, arbitrary: bigBurstArb }, { weight: 4, arbitrary: cmdArb }), { minLength: 1, maxLength: 30 }),
    }),
  },
);
