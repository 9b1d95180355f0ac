/**
 * Closed-loop flows (`arrival: {process: closed, users, thinkTimeMs, rampUpMs}`) in process, on
 * constant job times where every count is exact: N users keep N jobs at the endpoint, a user's
 * next session starts when its last one ends plus the think time, none starts at or after
 * durationMs, too few workers bound the throughput and never the users, and a seed gives the
 * same bytes. The dry-run plan's count for a closed flow is the one the run reaches.
 */
import { describe, expect, test } from 'vitest';
import { closedSessions } from '../../src/load/arrivals/closed.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema, type Scenario, type ScenarioInput } from '../../src/load/scenario/schema.js';
import { renderPlan } from '../../src/plan/dry-run.js';
import { renderJson } from '../../src/report/render-json.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import type { RunResult } from '../../src/report/run-result.js';

const JOB_MS = 1000;

/** N users of runsync (one request in flight per session: the session lasts its job) against 1 s jobs on warm workers. */
function closed(users: number, workers: number, arrival: Record<string, unknown> = {}, extra: Partial<ScenarioInput> = {}): Scenario {
  return scenarioSchema.parse({
    name: 'closed',
    durationMs: 10_000,
    drainMs: 10_000,
    endpoint: { id: 'ep', workersMin: workers, workersMax: workers, jobDurationMs: JOB_MS },
    traffic: [{ name: 'u', arrival: { process: 'closed', users, ...arrival }, client: { behaviour: 'runsync' } }],
    ...extra,
  } satisfies ScenarioInput);
}

/** The windows wholly inside the traffic phase. */
const inTraffic = (r: RunResult, xs: number[]) => xs.slice(0, Math.floor(r.scenario.durationMs / r.windows!.windowMs));

describe('a closed loop with enough workers', () => {
  test('N users keep exactly N jobs at the endpoint, and complete N × durationMs / (job + think) jobs', async () => {
    const r = await runScenario(closed(4, 4, { thinkTimeMs: 500 }));
    // Each user starts at 0, 1500, …, 9000 ms: ceil(10 000 / 1500) = 7 sessions, each one 1 s job.
    expect(r.flows.u).toMatchObject({ arrival: 'closed', users: 4, sessions: 28, outcomes: { COMPLETED: 28 } });
    expect(r.jobs.accepted).toBe(28);
    expect(r.flows.u!.jobs!.turnaroundMs!.summary).toMatchObject({ min: JOB_MS, max: JOB_MS });
    expect(r.headroom.operations.find((o) => o.operation === 'runsync')!.peakInFlight).toBe(4);
    // The last sessions start at 9000 ms and end in the drain.
    expect(r.elapsedMs).toBe(10_000);
    expect(r.arrivals).toMatchObject({ intended: 28, sent: 28, late: 0, dropped: 0 });
  });

  test('without think time every user always has its job at the endpoint', async () => {
    const r = await runScenario(closed(4, 4, {}, { durationMs: 30_000 }));
    expect(r.flows.u!.sessions).toBe(120);
    const e = r.windows!.endpoint!;
    expect(inTraffic(r, e.jobsInSystem)).toEqual([4, 4, 4]);
    expect(inTraffic(r, e.queueLength)).toEqual([0, 0, 0]);
    expect(Math.max(...r.timeline.inFlightMax)).toBe(4);
  });

  test("the dry-run plan's count is the run's: closedSessions with the mean job time", async () => {
    for (const arrival of [{ thinkTimeMs: 500 }, {}, { rampUpMs: 4000 }, { thinkTimeMs: 250, rampUpMs: 3000 }]) {
      const sc = closed(4, 4, arrival);
      const r = await runScenario(sc);
      const spec = sc.traffic[0]!.arrival;
      if (spec.process !== 'closed') throw new Error('closed flow expected');
      expect(r.flows.u!.sessions, JSON.stringify(arrival)).toBe(closedSessions(spec, sc.durationMs, JOB_MS));
      expect(renderPlan(sc).text).toContain(`closed loop of 4 users, at most ~${r.flows.u!.sessions} sessions`);
    }
  });

  test('rampUpMs spreads the first sessions evenly: user i starts at i × rampUpMs / users', async () => {
    const r = await runScenario(closed(4, 4, { rampUpMs: 4000 }));
    // Users start at 0, 1000, 2000 and 3000 ms, then one 1 s job after another: 10 + 9 + 8 + 7.
    expect(r.flows.u!.sessions).toBe(34);
    expect(r.windows!.endpoint!.jobsInSystem[0]).toBeLessThan(4);
  });

  test('no session starts at or after durationMs; those in flight end in the drain', async () => {
    const r = await runScenario(closed(2, 2, {}, { durationMs: 10_500 }));
    // Starts at 0, 1000, …, 10 000 ms (11 per user); the last ends at 11 000, in the drain.
    expect(r.flows.u).toMatchObject({ sessions: 22, outcomes: { COMPLETED: 22 } });
    expect(r.elapsedMs).toBe(11_000);
  });

  test('a session answered at once (a /health) starts again no sooner than 1 ms later', async () => {
    // 600 /health in 200 ms: under its rate limit (1000 per 10 s), so none is answered 429.
    const sc = scenarioSchema.parse({
      name: 'closed-health',
      durationMs: 200,
      traffic: [{ name: 'h', arrival: { process: 'closed', users: 3 }, client: { behaviour: 'health' } }],
    });
    const r = await runScenario(sc);
    expect(r.flows.h).toMatchObject({ sessions: 600, outcomes: { ok: 600 } });
  });
});

describe('a closed loop with too few workers', () => {
  test('the users stay N, the queue holds the rest, and the workers bound the throughput', async () => {
    const r = await runScenario(closed(6, 2, {}, { durationMs: 30_000 }));
    const e = r.windows!.endpoint!;
    // Never more than the users at the endpoint: 2 running, 4 queued, all through the traffic phase.
    expect(Math.max(...e.jobsInSystem)).toBeLessThanOrEqual(6);
    expect(inTraffic(r, e.jobsInSystem)).toEqual([6, 6, 6]);
    expect(inTraffic(r, e.queueLength)).toEqual([4, 4, 4]);
    expect(Math.max(...r.timeline.inFlightMax)).toBe(6);
    // 2 jobs/s however many users wait: 2 workers × the run's length / 1 s.
    const completed = r.flows.u!.outcomes.COMPLETED!;
    expect(completed).toBe(r.flows.u!.sessions);
    expect(completed).toBeLessThanOrEqual((2 * r.elapsedMs) / JOB_MS);
    expect(completed).toBeGreaterThanOrEqual((2 * 30_000) / JOB_MS);
    // Latency self-limits: a job waits for the two users ahead of it per worker.
    expect(r.flows.u!.jobs!.turnaroundMs!.summary.max).toBe(3 * JOB_MS);
    expect(r.jobs.queueDelayMs.summary.max).toBe(2 * JOB_MS);
  });
});

describe('determinism and reports', () => {
  const thinking = (seed: number) =>
    closed(
      5,
      3,
      { thinkTimeMs: { dist: 'lognormal', medianMs: 400, p95Ms: 2000 } },
      { seed, endpoint: { id: 'ep', workersMin: 3, workersMax: 3, jobDurationMs: { dist: 'exponential', meanMs: 800 } } },
    );
  const json = async (sc: Scenario) => {
    const r = await runScenario(sc);
    delete r.wallClock;
    return renderJson(r);
  };

  test('one seed, byte-identical report.json; another seed, another run', async () => {
    const a = await json(thinking(1));
    expect(await json(thinking(1))).toBe(a);
    expect(await json(thinking(2))).not.toBe(a);
  });

  test('think times are drawn: a lognormal pause slows the loop below the no-think rate', async () => {
    const think = await runScenario(thinking(1));
    const none = await runScenario(closed(5, 3, {}, { seed: 1, endpoint: thinking(1).endpoint }));
    expect(think.flows.u!.sessions).toBeLessThan(none.flows.u!.sessions);
    expect(think.flows.u!.sessions).toBeGreaterThan(none.flows.u!.sessions / 3);
  });

  test('report.md names the users of a closed flow', async () => {
    const md = renderMarkdown(await runScenario(closed(4, 4)));
    expect(md).toMatch(/\| u \| runsync \| closed \(4 users\) \| 40 \|/);
  });
});
