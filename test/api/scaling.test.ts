/**
 * Scaling model (FACTS "Scaling model", sim/scaler.ts): the first worker, QUEUE_DELAY and
 * REQUEST_COUNT scalers, workersMin/workersMax, idle timeout, cold and FlashBoot starts, and the
 * throttled / unhealthy faults — observed through /status, /health and worker.state events.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { harness } from '../helpers/harness.js';

type WorkerEvent = Extract<SimEvent, { type: 'worker.state' }>;
const workerEvents = (ev: SimEvent[]) => ev.filter((e): e is WorkerEvent => e.type === 'worker.state').map((e) => [e.atMs, e.workerId, e.from, e.to]);
const job = (durationMs: number) => ({ sim: { durationMs } });

describe('first worker', () => {
  it('with no live worker, a queued job starts one at once', () => {
    const h = harness();
    const ev = h.events();
    const id = h.run(job(1000)).body.id;
    expect(workerEvents(ev)).toEqual([
      [0, 'ep-w1', 'none', 'initializing'],
      [0, 'ep-w1', 'initializing', 'idle'],
      [0, 'ep-w1', 'idle', 'running'],
    ]);
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: 0, workerId: 'ep-w1' });
  });

  it('a cold start delays the first job by exactly the cold start', () => {
    const h = harness({ coldStartMs: 2345 });
    const id = h.run(job(1000)).body.id;
    h.at(2344);
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.req('GET', '/health').body.workers.initializing).toBe(1);
    h.at(2345);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 2345 });
    h.at(3345);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', delayTime: 2345, executionTime: 1000 });
  });

  it('a warm worker takes the next job with no delay', () => {
    const h = harness({ coldStartMs: 2000 });
    h.run(job(1000));
    h.at(4000);
    const id = h.run(job(1000)).body.id;
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0, workerId: 'ep-w1' });
  });

  it('workersMax 0 never starts a worker', () => {
    const h = harness({ workersMax: 0 });
    const id = h.run({}).body.id;
    h.at(60_000);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
  });
});

describe('QUEUE_DELAY scaler', () => {
  it('adds a worker when the oldest queued job has waited `value` seconds', () => {
    const h = harness({ scaler: { type: 'QUEUE_DELAY', value: 4 } });
    const ev = h.events();
    h.run(job(60_000));
    h.at(1000);
    const id = h.run(job(1000)).body.id;
    h.at(4999);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
    h.at(5000);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 4000, workerId: 'ep-w2' });
    expect(workerEvents(ev).filter((e) => e[1] === 'ep-w2')[0]).toEqual([5000, 'ep-w2', 'none', 'initializing']);
  });

  it('honours a fractional value (2.5 s)', () => {
    const h = harness({ scaler: { type: 'QUEUE_DELAY', value: 2.5 } });
    h.run(job(60_000));
    const id = h.run(job(1000)).body.id;
    h.at(2499);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
    h.at(2500);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 2500 });
  });

  it('adds one worker per overdue job, up to workersMax', () => {
    const h = harness({ workersMax: 3 });
    for (let i = 0; i < 6; i++) h.run(job(60_000));
    h.at(3999);
    expect(h.req('GET', '/health').body.workers.running).toBe(1);
    h.at(4000);
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 3, inQueue: 3 }, workers: { running: 3 } });
  });

  it('does not add a second worker for a job a starting worker will take', () => {
    const h = harness({ workersMax: 5, coldStartMs: 10_000 });
    const ev = h.events();
    h.run(job(1000));
    h.at(20_000);
    expect(
      workerEvents(ev)
        .filter((e) => e[3] === 'initializing')
        .map((e) => e[0]),
    ).toEqual([0]);
  });

  it('waits for the next queued job to become overdue before looking again', () => {
    const h = harness({ workersMax: 3 });
    h.run(job(60_000));
    const a = h.run(job(60_000)).body.id;
    h.at(2000);
    const b = h.run(job(60_000)).body.id;
    h.at(4000);
    expect(h.status(a).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 4000 });
    expect(h.status(b).body.status).toBe('IN_QUEUE');
    h.at(6000);
    expect(h.status(b).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 4000, workerId: 'ep-w3' });
  });
});

describe('REQUEST_COUNT scaler', () => {
  it('targets ceil((queued + in progress) / value) workers, applied at the end of the ms', () => {
    const h = harness({ workersMax: 10, scaler: { type: 'REQUEST_COUNT', value: 2 } });
    for (let i = 0; i < 5; i++) h.run(job(60_000));
    // The first worker starts at once; the rest of the target when ms 0 is over.
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 1, inQueue: 4 }, workers: { running: 1 } });
    h.at(1);
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 3, inQueue: 2 }, workers: { running: 3 } });
    h.run(job(60_000));
    h.run(job(60_000));
    h.at(2);
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 4, inQueue: 3 }, workers: { running: 4 } });
  });

  it('stops an idle worker above the target at the end of the ms it went idle (no idle timeout)', () => {
    const h = harness({ workersMax: 10, idleTimeoutMs: 60_000, scaler: { type: 'REQUEST_COUNT', value: 1 } });
    const ev = h.events();
    h.run(job(1000));
    h.run(job(3000));
    h.at(1000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, idle: 1 });
    h.at(1001);
    expect(workerEvents(ev).filter((e) => e[3] === 'stopped')).toEqual([[1000, 'ep-w1', 'idle', 'stopped']]);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, idle: 0 });
  });

  it('keeps workersMin', () => {
    const h = harness({ workersMin: 2, workersMax: 10, scaler: { type: 'REQUEST_COUNT', value: 1 } });
    h.run(job(1000));
    h.at(100_000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 2, running: 0 });
  });
});

describe('workersMin and idle timeout', () => {
  it('starts workersMin workers up front and keeps them', () => {
    const h = harness({ workersMin: 2, coldStartMs: 500 });
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 2, idle: 0 });
    h.at(500);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 0, idle: 2, ready: 2 });
    h.at(3_600_000);
    expect(h.req('GET', '/health').body.workers.idle).toBe(2);
  });

  it('stops a worker idle for idleTimeoutMs (at the end of that ms)', () => {
    const h = harness({ idleTimeoutMs: 5000 });
    const ev = h.events();
    h.run(job(1000));
    h.at(6000);
    expect(h.req('GET', '/health').body.workers.idle).toBe(1);
    h.at(6001);
    expect(h.req('GET', '/health').body.workers.idle).toBe(0);
    expect(workerEvents(ev).at(-1)).toEqual([6000, 'ep-w1', 'idle', 'stopped']);
  });

  it('a job arriving during the idle period resets the timeout', () => {
    const h = harness({ idleTimeoutMs: 5000 });
    h.run(job(1000));
    h.at(4000);
    h.run(job(1000)); // runs 4000-5000 on the same worker
    h.at(10_000);
    expect(h.req('GET', '/health').body.workers.idle).toBe(1);
    h.at(10_001);
    expect(h.req('GET', '/health').body.workers.idle).toBe(0);
  });

  it('stops workers above workersMin but not below', () => {
    const h = harness({ workersMin: 1, workersMax: 3, idleTimeoutMs: 5000 });
    for (let i = 0; i < 3; i++) h.run(job(10_000));
    h.at(4000); // two more workers for the two queued jobs
    expect(h.req('GET', '/health').body.workers.running).toBe(3);
    h.at(100_000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 1, running: 0, ready: 1 });
  });
});

describe('FlashBoot', () => {
  it('a worker restarting within the window uses the faster start', () => {
    const h = harness({ coldStartMs: 5000, flashBoot: { startMs: 500, windowMs: 300_000 }, idleTimeoutMs: 5000 });
    h.run(job(1000)); // cold: runs 5000-6000, stops at 11000
    h.at(20_000);
    expect(h.req('GET', '/health').body.workers.idle).toBe(0);
    const id = h.run(job(1000)).body.id;
    h.at(20_499);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
    h.at(20_500);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 500 });
  });

  it('after the window, a start is cold again', () => {
    const h = harness({ coldStartMs: 5000, flashBoot: { startMs: 500, windowMs: 10_000 }, idleTimeoutMs: 5000 });
    h.run(job(1000)); // stops at 11000
    h.at(21_001);
    const id = h.run(job(1000)).body.id;
    h.at(21_001 + 4999);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
    h.at(21_001 + 5000);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 5000 });
  });

  it('the very first start is always cold', () => {
    const h = harness({ coldStartMs: 5000, flashBoot: { startMs: 500 } });
    const id = h.run(job(1000)).body.id;
    h.at(5000);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 5000 });
  });
});

describe('faults', () => {
  it('throttled: takes a worker slot and shows in /health', () => {
    const h = harness({ workersMax: 2, faults: [{ kind: 'throttled', workers: 1 }] });
    const ids = [0, 1, 2].map(() => h.run(job(60_000)).body.id as string);
    h.at(30_000);
    expect(h.req('GET', '/health').body).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 1, inQueue: 2, retried: 0 },
      workers: { idle: 0, initializing: 0, ready: 1, running: 1, throttled: 1, unhealthy: 0 },
    });
    expect(h.status(ids[1]!).body.status).toBe('IN_QUEUE');
  });

  it('unhealthy: crash-looping workers never take a job', () => {
    const h = harness({ workersMax: 1, faults: [{ kind: 'unhealthy', workers: 1 }] });
    const id = h.run(job(1000)).body.id;
    h.at(60_000);
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.req('GET', '/health').body.workers).toEqual({ idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 1 });
  });

  it('a fault window takes idle workers when it opens and gives them back when it closes', () => {
    const h = harness({ workersMin: 2, workersMax: 2, coldStartMs: 1000, faults: [{ kind: 'throttled', workers: 2, fromMs: 10_000, toMs: 20_000 }] });
    h.at(9999);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 2, throttled: 0 });
    h.at(10_000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ idle: 0, throttled: 2 });
    const id = h.run(job(1000)).body.id;
    h.at(20_000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 2, throttled: 0 });
    h.at(21_000);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 11_000 });
  });
});
