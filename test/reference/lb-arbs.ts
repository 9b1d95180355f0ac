/**
 * Load-balancing endpoints for the differential test's random cases (model-balancer.ts): few
 * workers (workersMax 1 to 4) so requests wait at the balancer, one to three requests a worker,
 * cold starts around and past the 2-minute wait, starts that run past initTimeoutMs (unhealthy
 * workers a strict request waits for in vain), REQUEST_COUNT below and above workerConcurrency,
 * idle timeouts from none to past the 2-minute wait.
 * No GPU types: a worker waiting for a place that never comes is withdrawn and another started in
 * its stead at ends of ms the model and the core see differently, a churn of numbers of workers
 * that never answered, so that no client can name them. Requests with and without X-Runpod-Worker-Id in each mode (and
 * malformed), runs that cross the 330 s limit, crashes, and clock advances that land on and
 * around the 120 s, 300 s and 330 s boundaries.
 */
import fc from 'fast-check';
import { opt } from './arb-helpers.js';
import type { CaseConfig, Cmd, LbAffinity, RefCase } from './case.js';

const SEC = 1_000;
const MIN = 60 * SEC;

/** Durations on and beside the balancer's boundaries (2 min, 5 min, 5.5 min), and short ones. */
const boundaryArb = fc.constantFrom(2 * MIN - 1, 2 * MIN, 2 * MIN + 1, 5 * MIN - 1, 5 * MIN, 5.5 * MIN - 1, 5.5 * MIN, 5.5 * MIN + 1);
const durationArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, SEC, 10 * SEC, MIN) },
  { weight: 2, arbitrary: boundaryArb },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 400 }).map((s) => s * SEC) },
);

const configArb: fc.Arbitrary<CaseConfig> = fc
  .record(
    {
      seed: fc.integer({ min: 1, max: 1_000 }),
      workers: fc.integer({ min: 1, max: 4 }),
      workersMin: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }),
      workerConcurrency: fc.oneof({ weight: 2, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.integer({ min: 2, max: 3 }) }),
      coldStartMs: fc.oneof(
        { weight: 2, arbitrary: fc.constant(0) },
        { weight: 3, arbitrary: fc.constantFrom(SEC, 30 * SEC, 2 * MIN - 1, 2 * MIN, 2.5 * MIN, 5 * MIN) },
        { weight: 1, arbitrary: fc.constant({ dist: 'uniform' as const, minMs: MIN, maxMs: 4 * MIN }) },
      ),
      // Some starts (crash restarts included) run past it: unhealthy workers.
      initTimeoutMs: fc.constantFrom(90 * SEC, 3 * MIN),
      scaler: fc.record({ type: fc.constant('REQUEST_COUNT' as const), value: fc.constantFrom(1, 2, 3) }),
      executionTimeoutMs: fc.constantFrom(MIN, 5.5 * MIN),
      // Workers stop at their idle timeout, down to the REQUEST_COUNT target: at once, soon, or past a strict wait.
      idleTimeoutMs: fc.constantFrom(0, SEC, 5 * SEC, 2 * MIN),
      listen: fc.boolean(),
    },
    { requiredKeys: ['seed', 'workers', 'workersMin', 'workerConcurrency', 'coldStartMs'] },
  )
  .map((c) => ({ ...c, type: 'load-balancer' as const, workersMin: Math.min(c.workersMin!, c.workers) }));

/** Worker numbers 1 to 5 (some never started), or 0: an id of no worker of the endpoint. */
const affinityArb: fc.Arbitrary<LbAffinity> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({ mode: fc.constantFrom('soft' as const, 'strict' as const, 'strict-resume' as const), worker: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 2, arbitrary: fc.record({ mode: fc.constantFrom('soft' as const, 'strict' as const, 'strict-resume' as const), worker: fc.constantFrom(0, 5) }) },
  { weight: 1, arbitrary: fc.record({ mode: fc.constant('bad' as const), header: fc.constantFrom('strict', 'strict ep-w1 now', ' ') }) },
);

const lbArb: fc.Arbitrary<Cmd> = fc.record(
  {
    t: fc.constant('lb' as const),
    sim: fc.record(
      { durationMs: durationArb, fail: fc.constantFrom<boolean | string>(false, false, true, 'boom'), crash: fc.constantFrom(false, false, false, true) },
      { requiredKeys: ['durationMs'] },
    ),
    affinity: opt(affinityArb),
    n: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 5 }) }),
  },
  { requiredKeys: ['t', 'sim'] },
);

const pingArb: fc.Arbitrary<Cmd> = fc.record(
  { t: fc.constant('lb' as const), ping: fc.constant(true), affinity: opt(affinityArb) },
  { requiredKeys: ['t', 'ping'] },
);

const advanceArb: fc.Arbitrary<Cmd> = fc.record({
  t: fc.constant('advance' as const),
  ms: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(0, 1, SEC, 10 * SEC) },
    { weight: 3, arbitrary: boundaryArb },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 400 }).map((s) => s * SEC) },
  ),
});

export const lbCmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 6, arbitrary: lbArb },
  { weight: 1, arbitrary: pingArb },
  { weight: 1, arbitrary: fc.constant({ t: 'health' as const }) },
  { weight: 5, arbitrary: advanceArb },
);

export const lbCaseArb: fc.Arbitrary<RefCase> = fc.record({ config: configArb, cmds: fc.array(lbCmdArb, { minLength: 5, maxLength: 40 }) });
