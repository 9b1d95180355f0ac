/**
 * The `cold_start` job metric: how long a job waited for a starting worker (docs/thresholds.md),
 * from the simulator's `job.started` events through the in-process target to the flows' job times.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { evaluateThresholds } from '../../src/report/thresholds.js';
import { harness } from '../helpers/harness.js';

/**
 * One job every 10 s for 40 s on an endpoint that scales from 0: each job runs 1 s, a worker idles
 * out 5 s after its job, a cold start takes 5 s. So the jobs at 0 s and 20 s find no worker
 * (5000 ms each), those at 10 s and 30 s find the previous job's worker idle (0 ms).
 */
const endpoint = { workersMin: 0, workersMax: 1, coldStartMs: 5000, idleTimeoutMs: 5000, jobDurationMs: 1000 };
const poll = { behaviour: 'run-poll', poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 } };
const scenario = (thresholds: string[], client: object = poll) =>
  scenarioSchema.parse({
    name: 'cold',
    durationMs: 40_000,
    drainMs: 30_000,
    endpoint,
    thresholds,
    traffic: [{ name: 'x', arrival: { process: 'constant', ratePerSec: 0.1 }, client }],
  });

describe('cold_start', () => {
  test('job.started says how long each job waited for its worker to start', () => {
    const started = (workersMin: number, times: number[], input: Record<string, unknown> = {}) => {
      const h = harness({ ...endpoint, workersMin });
      const ev = h.events();
      for (const at of times) {
        h.at(at);
        h.run(input);
      }
      h.at(100_000);
      return ev.flatMap((e) => (e.type === 'job.started' ? [[e.atMs, e.delayTimeMs, e.coldStartMs]] : []));
    };
    // From 0 workers. The job at 30.5 s waits for the one at 30 s (a running worker), not for a start: 0.
    expect(started(0, [0, 10_000, 20_000, 30_000, 30_500])).toEqual([
      [5000, 5000, 5000],
      [10_000, 0, 0],
      [25_000, 5000, 5000],
      [30_000, 0, 0],
      [31_000, 500, 0],
    ]);
    // workersMin 1 boots at 0 and is ready at 5 s: a job at 2 s waited only the rest of that start.
    expect(started(1, [2000])).toEqual([[5000, 3000, 3000]]);
    // A crash halfway (at 5.5 s) restarts the worker cold; the re-queued job waits for that start too.
    expect(started(0, [0], { sim: { crash: true } })).toEqual([
      [5000, 5000, 5000],
      [10_500, 5000, 5000],
    ]);
  });

  test('a run records every job, 0s included, per flow and per window; thresholds read it', async () => {
    const r = await runScenario(scenario(['cold_start_p95_ms{flow=x} < 1000', 'cold_start_p95_ms{flow=x} < 10000', 'cold_start_p50_ms < 1 every 10s']));
    // Four jobs: two 0s, two 5000s (HDR's mean counts 5000 as its bucket's middle, 5002: 2501).
    const c = r.flows.x!.jobs!.coldStartMs!;
    expect([c.count, c.summary.min, c.summary.p50, c.summary.mean, c.summary.max]).toEqual([4, 0, 0, 2501, 5000]);
    expect(r.windows!.flows.x!.coldStartMs!.filter((w) => w !== '').length).toBe(4);
    expect(r.thresholds.map((t) => [t.ok, t.value])).toEqual([
      [false, 5000],
      [true, 5000],
      [false, 5003],
    ]);
    // Per window: the one at 0 s and the one at 20 s hold a 5000 ms wait (5003: HDR's bucket, 3 digits).
    expect(r.thresholds[2]!.window).toMatchObject({ fromMs: 0, toMs: 10_000 });
    expect(evaluateThresholds(r, ['cold_start_max_ms{flow=x} == 5000', 'cold_start_mean_ms == 2501']).map((t) => t.ok)).toEqual([true, true]);
  });

  test('a /runsync job, started before its client learns its id, counts too', async () => {
    const r = await runScenario(scenario(['cold_start_max_ms{flow=x} == 5000'], { behaviour: 'runsync', waitMs: 60_000 }));
    const c = r.flows.x!.jobs!.coldStartMs!;
    expect([c.count, c.summary.min, c.summary.max]).toEqual([4, 0, 5000]);
    expect(r.thresholds[0]!.ok).toBe(true);
  });

  test('abortOnFail: an every threshold on cold starts ends the run at the first window it fails', async () => {
    const sc = scenarioSchema.parse({ ...scenario([]), thresholds: [{ expr: 'cold_start_max_ms < 1000 every 10s', abortOnFail: true }] });
    const r = await runScenario(sc);
    expect(r.aborted).toEqual({ threshold: 'cold_start_max_ms < 1000 every 10s', atMs: 10_000 });
  });

  test('without a cold_start threshold nothing listens: the series is absent, not 0', async () => {
    const r = await runScenario(scenario([]));
    expect(r.flows.x!.jobs!.coldStartMs).toBeUndefined();
    expect(r.windows!.flows.x!.coldStartMs).toBeUndefined();
    const [t] = evaluateThresholds(r, ['cold_start_p95_ms < 10000']);
    expect(t).toMatchObject({ ok: false, value: null });
    const on = await runScenario(scenario([]), { coldStarts: true });
    expect(on.flows.x!.jobs!.coldStartMs!.count).toBe(4);
  });
});
