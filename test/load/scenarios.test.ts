/**
 * Every example scenario runs, twice with one seed, and gives byte-identical report.json
 * (wallClock aside). The 24 h days are run for 30 virtual minutes here (the bench runs diurnal-day whole).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { runScenario } from '../../src/load/run-scenario.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { renderJson } from '../../src/report/render-json.js';

const files = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .sort();

function load(file: string): Scenario {
  const l = loadScenarioFile(`scenarios/${file}`);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  // The whole day is a benchmark; in tests half a virtual hour of it show determinism.
  // A loaded scenario is frozen: the shortened day is a new object.
  if (l.scenario.name === 'diurnal-day') return { ...l.scenario, durationMs: 1800_000, thresholds: ['jobs_completed > 0'] };
  // The capacity-plan day likewise (test/plan/capacity-plan-example.test.ts plans a shortened one).
  if (l.scenario.name === 'capacity-plan') return { ...l.scenario, durationMs: 1800_000, thresholds: ['jobs_completed > 0'] };
  return l.scenario;
}

async function reportJson(sc: Scenario, seed?: number): Promise<string> {
  const r = await runScenario(sc, seed === undefined ? {} : { seed });
  delete r.wallClock;
  return renderJson(r);
}

describe('example scenarios', () => {
  test('the examples the issue lists are all there', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'burst-rate-limit.yaml',
        'diurnal-day.yaml',
        'queue-throttling.yaml',
        'retention-expiry.yaml',
        'runsync-heavy.yaml',
        'steady-mix.yaml',
        'streaming.yaml',
        'webhook-failing.yaml',
      ]),
    );
  });

  for (const f of files) {
    test(`${f}: two runs with one seed give byte-identical report.json, and its thresholds pass`, async () => {
      const a = await reportJson(load(f));
      const b = await reportJson(load(f));
      expect(a).toBe(b);
      const r = JSON.parse(a);
      expect(r.thresholds.filter((t: { ok: boolean }) => !t.ok)).toEqual([]);
      expect(r.arrivals.intended).toBeGreaterThan(0);
    });
  }

  test('another seed gives another run', async () => {
    const sc = load('steady-mix.yaml');
    expect(await reportJson(sc, 2)).not.toBe(await reportJson(sc, 1));
  });
});

describe('what the examples show', () => {
  const run = async (f: string) => runScenario(load(f));
  test('burst past the /run rate limit: 429s with cause rate, re-sent after back-off', async () => {
    const r = await run('burst-rate-limit.yaml');
    expect(r.operations.run!.limited.rate).toBeGreaterThan(0);
    expect(r.operations.run!.limited.queue + r.operations.run!.limited.concurrency).toBe(0);
    expect(r.operations.run!.retried429).toBeGreaterThan(0);
    expect(r.headroom.operations.find((o) => o.operation === 'run')!.peakPer10s).toBeGreaterThan(1000);
  });
  test('queue throttling: 429s with cause queue and the queue depth at the throttle point', async () => {
    const r = await run('queue-throttling.yaml');
    expect(r.operations.run!.limited.queue).toBeGreaterThan(0);
    expect(r.operations.run!.limited.rate).toBe(0);
    expect(r.headroom.queueThrottleAt).toBe(61);
    expect(r.headroom.peakQueueDepth).toBe(61);
  });
  test('retention expiry: slow pollers see 404 for jobs that existed', async () => {
    const r = await run('retention-expiry.yaml');
    expect(r.jobs.retentionExpiriesSeen).toBeGreaterThan(0);
    expect(r.flows['slow-pollers']!.outcomes.expired).toBe(r.jobs.retentionExpiriesSeen);
  });
  test('failing webhook receiver: every job retried, lateness of at least one 10 s interval', async () => {
    const r = await run('webhook-failing.yaml');
    expect(r.webhooks.retries).toBeGreaterThanOrEqual(r.jobs.accepted);
    expect(r.webhooks.latenessMs.summary.min).toBeGreaterThanOrEqual(10_000);
    expect(r.webhooks.delivered + r.webhooks.gaveUp).toBe(r.jobs.accepted);
  });
  test('concurrency limit and purge-queue: /runsync 429s with cause concurrency only; purged jobs counted as purged', async () => {
    const r = await run('concurrency-purge.yaml');
    expect(r.operations.runsync!.limited.concurrency).toBeGreaterThan(0);
    expect(r.operations.runsync!.limited.rate + r.operations.runsync!.limited.queue).toBe(0);
    expect(r.headroom.operations.find((o) => o.operation === 'runsync')!.peakInFlight).toBeGreaterThanOrEqual(4);
    expect(r.jobs.purged).toBeGreaterThan(0);
    expect(r.flows.batch!.outcomes.purged).toBeGreaterThan(0);
    expect(Object.values(r.flows).reduce((n, f) => n + (f.outcomes.purged ?? 0), 0)).toBe(r.jobs.purged);
  });
  test('replayed trace under maxInFlight: late arrivals, none dropped', async () => {
    const r = await run('replay-trace.yaml');
    expect(r.arrivals.late).toBeGreaterThan(0);
    expect(r.arrivals.dropped).toBe(0);
    expect(r.arrivals.intended).toBe(143); // 15 offsets over 9 s at speed 1.5, looped over 60 s
  });
  test('LLM benchmark at fixed concurrency: 8 users in a closed loop keep 8 streamed requests in flight on 6 workers, 2 waiting', async () => {
    const r = await run('llm-closed-loop.yaml');
    expect(r.flows.bench).toMatchObject({ arrival: 'closed', users: 8 });
    expect(r.flows.bench!.outcomes).toEqual({ COMPLETED: r.flows.bench!.sessions });
    expect(r.headroom.operations.find((o) => o.operation === 'openai')!.peakInFlight).toBe(8);
    expect(r.headroom.peakQueueDepth).toBe(2);
    expect(r.flows.bench!.stream!.requests).toBe(r.flows.bench!.sessions);
  });
  test('stages onto faulty workers: throttled and unhealthy worker time, every-window and abortOnFail thresholds pass', async () => {
    const r = await run('stages-faults.yaml');
    expect(r.workers!.secondsByState.throttled).toBeGreaterThan(0);
    expect(r.workers!.secondsByState.unhealthy).toBeGreaterThan(0);
    expect(r.aborted).toBeUndefined();
    expect(r.thresholds.map((t) => t.ok)).toEqual([true, true, true]);
  });
});
