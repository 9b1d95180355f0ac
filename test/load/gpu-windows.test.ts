/**
 * `windows.endpoint.byGpu`: the workers on each GPU type over time, for an endpoint that lists its
 * gpus. In process (the simulator's occupancy, exact on the virtual clock), in lockstep (the same
 * figures from `POST /_sim/occupancy`), sampled from /health `workers.byGpu`, and merged. The
 * scenario of test/cli/gpu-priority-bill.test.ts: two jobs at once on a cold endpoint with room for
 * one H100-PRO, so one worker on each type; then with no room on A100, so the second waits.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { WORKER_STATES } from '../../src/contract/sim-events.js';
import { HealthSamples } from '../../src/load/record/health-samples.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema, type Scenario } from '../../src/load/scenario/schema.js';
import { LockstepTarget } from '../../src/load/targets/lockstep/lockstep-target.js';
import { mergeEndpointWindows } from '../../src/report/merge/endpoint-windows.js';
import type { EndpointWindows } from '../../src/report/run-result.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { twoColdJobs } from '../helpers/two-cold-jobs.js';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

const scenario = (hostCapacity: Record<string, number>): Scenario =>
  scenarioSchema.parse(twoColdJobs('gpu-windows', { gpus: ['H100-PRO', 'A100'], hostCapacity }));

const sumOver = (e: EndpointWindows, s: (typeof WORKER_STATES)[number]) => e.workers[s].map((_, i) => e.byGpu!.reduce((a, g) => a + g.workers[s][i]!, 0));

describe('windows.endpoint.byGpu', () => {
  test('in process: per type, by state, 10 s windows; the types add up to the workers by state', async () => {
    const r = await runScenario(scenario({ 'H100-PRO': 1 }));
    const e = r.windows!.endpoint!;
    // The H100-PRO worker starts at 0 (cold 10 s), runs 10–12 s and idles; the A100 worker is wanted at 1 s (QUEUE_DELAY) and runs 11–13 s; the run ends at 13 s.
    expect(e.byGpu!.map((g) => g.gpu)).toEqual(['H100-PRO', 'A100']);
    expect(e.byGpu![0]!.workers).toMatchObject({ initializing: [1, 0], running: [0, 0.667], idle: [0, 0.333] });
    expect(e.byGpu![1]!.workers).toMatchObject({ initializing: [0.9, 0.333], running: [0, 0.667], idle: [0, 0] });
    // Each figure is rounded to 3 decimals: the sum of two is within 0.001 of the total.
    for (const s of WORKER_STATES) sumOver(e, s).forEach((v, i) => expect(Math.abs(v - e.workers[s][i]!), `${s} ${i}`).toBeLessThanOrEqual(0.0010001));
  });

  test('a worker waiting for room on every type is on none: throttled in workers only', async () => {
    const e = (await runScenario(scenario({ 'H100-PRO': 1, A100: 0 }))).windows!.endpoint!;
    expect(e.workers.throttled[0]).toBeGreaterThan(0);
    expect(sumOver(e, 'throttled')).toEqual(e.workers.throttled.map(() => 0));
    expect(e.byGpu![1]!.workers).toEqual(Object.fromEntries(WORKER_STATES.map((s) => [s, e.workers[s].map(() => 0)])));
  });

  test('lockstep against serve --clock manual: the same figures as in process', async () => {
    const sc = scenario({ 'H100-PRO': 1 });
    const a = await runScenario(sc);
    const parsed = parseSimConfig({ seed: sc.seed, endpoints: [sc.endpoint] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const srv = await startServer({ config: parsed.config, port: 0, clock: 'manual' });
    servers.push(srv);
    const b = await runScenario(sc, { target: () => new LockstepTarget(srv.baseUrl, { apiKey: 'k', endpointId: sc.endpoint.id }) });
    expect(b.windows!.endpoint!.byGpu).toEqual(a.windows!.endpoint!.byGpu);
  });

  test('sampled: the mean of /health workers.byGpu per window (-1 where no answer); absent when no answer has it', () => {
    const h = new HealthSamples(10_000);
    const zero = { idle: 0, initializing: 0, running: 0, throttled: 0, unhealthy: 0 };
    const body = (h100: object, a100: object) => ({
      jobs: { inQueue: 0, inProgress: 0 },
      workers: { byGpu: { 'H100-PRO': { ...zero, ...h100 }, A100: { ...zero, ...a100 } } },
    });
    h.add(1000, body({ initializing: 1 }, {}));
    h.add(6000, body({ running: 1 }, { initializing: 1 }));
    h.add(25_000, body({ idle: 1 }, { running: 2 }));
    const e = h.windows(3)!;
    expect(e.byGpu!.map((g) => g.gpu)).toEqual(['H100-PRO', 'A100']);
    expect(e.byGpu![0]!.workers).toMatchObject({ initializing: [0.5, -1, 0], running: [0.5, -1, 0], idle: [0, -1, 1] });
    expect(e.byGpu![1]!.workers).toMatchObject({ initializing: [0.5, -1, 0], running: [0, -1, 2] });
    const plain = new HealthSamples(10_000);
    plain.add(0, { jobs: { inQueue: 0 }, workers: { running: 1 } });
    expect(plain.windows(1)!.byGpu).toBeUndefined();
  });

  test('merged shards: each window from the picked shard, a type it lacks -1 there', () => {
    const states = (v: number[]) => Object.fromEntries(WORKER_STATES.map((s) => [s, v])) as EndpointWindows['workers'];
    const ew = (q: number[], byGpu?: EndpointWindows['byGpu']): EndpointWindows => ({
      source: 'simulator',
      queueLength: q,
      jobsInSystem: q,
      workers: states(q),
      ...(byGpu ? { byGpu } : {}),
    });
    const m = mergeEndpointWindows([ew([1, -1], [{ gpu: 'A100', workers: states([1, 1]) }]), ew([2, 2])], [0, 0], 2)!;
    expect(m.byGpu).toEqual([{ gpu: 'A100', workers: states([1, -1]) }]);
    expect(mergeEndpointWindows([ew([1]), ew([2])], [0, 0], 1)!.byGpu).toBeUndefined();
  });
});
