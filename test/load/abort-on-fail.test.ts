/** abortOnFail on a whole-run threshold: checked at each 10 s window end on the data so far, after delayAbortEvalMs. */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';

const scenario = (thresholds: unknown[]) =>
  scenarioSchema.parse({
    name: 'ab',
    durationMs: 300_000,
    drainMs: 10_000,
    endpoint: { workersMin: 2, workersMax: 2, jobDurationMs: 100, workload: { failureProbability: 0.5 } },
    traffic: [
      {
        name: 'a',
        arrival: { process: 'constant', ratePerSec: 1 },
        client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1, maxMs: 200, jitter: 0 } },
      },
    ],
    thresholds,
  });

describe('abortOnFail', () => {
  test('a whole-run threshold aborts at the first window end where the data so far breaks it', async () => {
    const r = await runScenario(scenario([{ expr: 'jobs_failed < 5', abortOnFail: true }]));
    expect(r.aborted).toEqual({ threshold: 'jobs_failed < 5', atMs: 10_000 });
    expect(r.elapsedMs).toBe(10_000);
    expect(r.thresholds[0]!.ok).toBe(false);
  });
  test('delayAbortEvalMs holds the check back; a passing abort threshold lets the run finish', async () => {
    const late = await runScenario(scenario([{ expr: 'jobs_failed < 5', abortOnFail: true, delayAbortEvalMs: 60_000 }]));
    expect(late.aborted).toEqual({ threshold: 'jobs_failed < 5', atMs: 60_000 });
    const fine = await runScenario(scenario([{ expr: 'jobs_failed < 100000', abortOnFail: true }]));
    expect(fine.aborted).toBeUndefined();
    expect(fine.elapsedMs).toBeGreaterThan(299_000);
  });
});
