/**
 * REQUEST_COUNT scaling at the end of each millisecond (docs/api.md, "Scaling"): a worker that goes idle in the same ms as a job arrives takes that job, in whichever
 * order the two come; no worker is stopped and none started for it. Exact counts of starts.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { harness } from '../helpers/harness.js';

type WorkerEvent = Extract<SimEvent, { type: 'worker.state' }>;
const workerEvents = (ev: SimEvent[]) => ev.filter((e): e is WorkerEvent => e.type === 'worker.state');
const starts = (ev: SimEvent[]) => workerEvents(ev).filter((e) => e.from === 'none').length;
const stops = (ev: SimEvent[]) => workerEvents(ev).filter((e) => e.to === 'stopped').length;
const delays = (ev: SimEvent[]) => ev.flatMap((e) => (e.type === 'job.started' ? [e.delayTimeMs] : []));

const requestCount = (coldStartMs: number) => ({
  workersMax: 20,
  coldStartMs,
  jobDurationMs: 1000,
  scaler: { type: 'REQUEST_COUNT' as const, value: 1 },
});

describe('REQUEST_COUNT value 1, a steady 10 jobs/s of 1 s each (needs 10 workers)', () => {
  it('no cold start: 10 workers start, none stops while the load lasts, no job waits', () => {
    const h = harness(requestCount(0));
    const ev = h.events();
    for (let i = 0; i < 600; i++) {
      h.at(i * 100); // the job of i × 100 arrives after the one of i × 100 - 1000 completed
      h.run({ i });
    }
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 0, running: 10, idle: 0 });
    expect(starts(ev)).toBe(10);
    expect(stops(ev)).toBe(0);
    expect(delays(ev).every((d) => d === 0)).toBe(true);
    h.at(70_000);
    expect(stops(ev)).toBe(10);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 0, running: 0 });
  });

  it('cold start 1 s: 20 starts (10 more while the first ten boot, as queued jobs count), then none', () => {
    const h = harness(requestCount(1000));
    const ev = h.events();
    for (let i = 0; i < 600; i++) {
      h.at(i * 100);
      h.run({ i });
      if (i === 100) {
        expect(starts(ev)).toBe(20);
        expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 0, running: 10, idle: 0 });
      }
    }
    expect(starts(ev)).toBe(20);
    expect(stops(ev)).toBe(10);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 0, running: 10 });
    // Only jobs that arrived during the first cold starts waited.
    expect(delays(ev).filter((d) => d > 0)).toHaveLength(29);
  });

  it('the same with each arrival an event scheduled before the run it coincides with (arrival first)', () => {
    const h = harness(requestCount(1000));
    const ev = h.events();
    // All 600 arrivals scheduled up front: at a shared ms, the arrival runs before the completion.
    for (let i = 0; i < 600; i++) h.sim.sched.at(i * 100, () => h.run({ i }));
    h.at(30_000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 0, running: 10, idle: 0 });
    h.at(59_999);
    expect(starts(ev)).toBe(20);
    expect(delays(ev).filter((d) => d > 0)).toHaveLength(29);
  });
});

describe('one worker, one job at a time (REQUEST_COUNT value 1, cold start 2 s)', () => {
  const cfg = { ...requestCount(2000), jobDurationMs: 500 };

  it('a job arriving in the ms its predecessor ends takes the freed worker: one start in all', () => {
    const h = harness(cfg);
    const ev = h.events();
    const first = h.run().body.id;
    h.at(2500); // cold start 2000 + run 500
    const second = h.run().body.id;
    expect(h.status(second).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0, workerId: 'ep-w1' });
    expect(h.status(first).body.status).toBe('COMPLETED');
    h.at(3000);
    const third = h.run().body.id;
    expect(h.status(third).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0, workerId: 'ep-w1' });
    expect(starts(ev)).toBe(1);
    h.at(3501);
    expect(workerEvents(ev).map((e) => [e.atMs, e.workerId, e.from, e.to])).toEqual([
      [0, 'ep-w1', 'none', 'initializing'],
      [2000, 'ep-w1', 'initializing', 'idle'],
      [2000, 'ep-w1', 'idle', 'running'],
      [2500, 'ep-w1', 'running', 'idle'],
      [2500, 'ep-w1', 'idle', 'running'],
      [3000, 'ep-w1', 'running', 'idle'],
      [3000, 'ep-w1', 'idle', 'running'],
      [3500, 'ep-w1', 'running', 'idle'],
      [3500, 'ep-w1', 'idle', 'stopped'],
    ]);
  });

  it('an idle worker above the target is still there during its ms, and stopped at its end', () => {
    const h = harness(cfg);
    const ev = h.events();
    h.run();
    h.at(2500);
    // Over HTTP this is the state after `/_sim/advance` to 2 500: the ms is not over.
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 1, running: 0 });
    h.at(2501);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 0, running: 0 });
    expect(workerEvents(ev).at(-1)).toMatchObject({ atMs: 2500, from: 'idle', to: 'stopped' });
  });
});

describe('idle timeout (QUEUE_DELAY) also stops a worker only at the end of the ms', () => {
  it('idleTimeoutMs 0: a job arriving in the ms the worker went idle takes it; one start in all', () => {
    const h = harness({ idleTimeoutMs: 0, coldStartMs: 2000, jobDurationMs: 500 });
    const ev = h.events();
    h.run();
    h.at(2500);
    const second = h.run().body.id;
    expect(h.status(second).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0, workerId: 'ep-w1' });
    h.at(3001);
    expect(starts(ev)).toBe(1);
    expect(workerEvents(ev).at(-1)).toMatchObject({ atMs: 3000, workerId: 'ep-w1', from: 'idle', to: 'stopped' });
  });

  it('a job arriving in the very ms the idle timeout ends takes the worker and restarts its timeout', () => {
    const h = harness({ idleTimeoutMs: 5000, coldStartMs: 2000, jobDurationMs: 1000 });
    const ev = h.events();
    h.run();
    h.at(8000); // idle since 3000: the timeout ends at 8000
    expect(h.run().status).toBe(200);
    h.at(14_001); // idle again since 9000
    expect(starts(ev)).toBe(1);
    expect(workerEvents(ev).at(-1)).toMatchObject({ atMs: 14_000, from: 'idle', to: 'stopped' });
  });
});
