/**
 * The billing rule on the simulator's own worker pool (load/targets/in-process/worker-bills.ts,
 * what `loadlab run` and `loadlab plan` bill): the states whose time is billed come from the
 * endpoint's `billing`, through the pool's watch of worker lives.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';

const poll = { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, maxMs: 500, jitter: 0 } };
const scenario = (endpoint: object) =>
  scenarioSchema.parse({
    name: 'bill',
    durationMs: 5_000,
    drainMs: 30_000,
    endpoint: { workersMin: 0, workersMax: 1, jobDurationMs: 2000, idleTimeoutMs: 5000, scaler: { type: 'QUEUE_DELAY', value: 1 }, ...endpoint },
    traffic: [{ name: 'one', arrival: { process: 'replay', timestampsMs: [0] }, client: poll }],
  });

describe('the billing rule on the in-process target', () => {
  test("RunPod's pricing page: an unhealthy worker is not billed (a crash-looping slot until 10 s, then 2 s running and 5 s idle: 7 s)", async () => {
    const r = await runScenario(scenario({ faults: [{ kind: 'unhealthy', workers: 1, fromMs: 0, toMs: 10_000 }] }), { seed: 1 });
    const w = r.workers!;
    expect(w.secondsByState.unhealthy).toBeGreaterThan(5);
    expect(w.secondsByState.running).toBe(2);
    expect(w.billedSeconds.flex).toBe(7);
    expect(w.billing).toEqual({ initializing: false, billedStates: ['running', 'idle'] });
  });

  test("RunPod's pricing page: a throttled worker is not billed, with billing.initializing: true too", async () => {
    const r = await runScenario(
      scenario({ coldStartMs: 3000, billing: { initializing: true }, faults: [{ kind: 'throttled', workers: 1, fromMs: 0, toMs: 10_000 }] }),
      { seed: 1 },
    );
    const w = r.workers!;
    expect(w.secondsByState.throttled).toBeGreaterThan(5);
    expect(w.secondsByState.initializing).toBe(3);
    // 3 s initializing (billed by the setting) + 2 s running + 5 s idle.
    expect(w.billedSeconds.flex).toBe(10);
    expect(w.billing).toEqual({ initializing: true, billedStates: ['running', 'idle', 'initializing'] });
  });
});
