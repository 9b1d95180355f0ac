/**
 * Spec §3 (states and transitions) and FACTS "Statuses", on the in-process API, in exact virtual
 * time. Defaults: workersMax 3, cold start 0, job 1000 ms, idle timeout 5 s.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

const long = (ms: number, extra: Record<string, unknown> = {}) => ({ sim: { durationMs: ms, ...extra } });

describe('cancel (spec §3)', () => {
  it('cancels a queued job at once and removes it from the queue', () => {
    const h = harness({ workersMax: 1 });
    const a = h.run(long(5000)).body.id;
    const b = h.run(long(1000)).body.id;
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(1);
    const c = h.req('POST', `/cancel/${b}`);
    expect(c.atMs).toBe(0);
    expect(c.body).toEqual({ id: b, status: 'CANCELLED' });
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(0);
    expect(h.status(b).body).toEqual({ id: b, status: 'CANCELLED' });
    // The cancelled job never runs: the worker goes idle after the first job.
    h.at(10_000);
    expect(h.status(a).body.status).toBe('COMPLETED');
    expect(h.status(b).body).toEqual({ id: b, status: 'CANCELLED' });
  });

  it('cancels a running job at once; the worker takes the next job at that instant', () => {
    const h = harness({ workersMax: 1 });
    const a = h.run(long(60_000)).body.id;
    const b = h.run(long(1000)).body.id;
    h.at(2500);
    const c = h.req('POST', `/cancel/${a}`);
    expect(c.atMs).toBe(2500);
    expect(c.body).toEqual({ id: a, status: 'CANCELLED' });
    expect(h.status(a).body).toEqual({ id: a, status: 'CANCELLED', delayTime: 0, executionTime: 2500, workerId: 'ep-w1' });
    expect(h.status(b).body).toEqual({ id: b, status: 'IN_PROGRESS', delayTime: 2500, executionTime: 0, workerId: 'ep-w1' });
    h.at(3500);
    expect(h.status(b).body.status).toBe('COMPLETED');
  });

  it('leaves a job that already ended as it was', () => {
    const h = harness();
    const a = h.run({ x: 1 }).body.id;
    h.at(1000);
    expect(h.req('POST', `/cancel/${a}`).body).toEqual({ id: a, status: 'COMPLETED' });
    expect(h.status(a).body.output).toEqual({ x: 1 });
  });

  it('answers 404 for an unknown job', () => {
    const h = harness();
    const r = h.req('POST', '/cancel/nope-u1');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('API_ERR_JOB_NOT_FOUND');
  });
});

describe('retry (spec §3 rule 1)', () => {
  it('re-queues a FAILED job with the same id and input; the error is gone', () => {
    const h = harness({ workersMax: 1 });
    const blocker = h.run(long(1000)).body.id;
    const id = h.run({ v: 7, sim: { fail: 'boom', durationMs: 500 } }).body.id;
    h.at(1500);
    expect(h.status(id).body).toEqual({ id, status: 'FAILED', delayTime: 1000, executionTime: 500, workerId: 'ep-w1', error: 'boom' });
    // Keep the worker busy so the retried job is visibly back in the queue.
    const busy = h.run(long(10_000)).body.id;
    const r = h.req('POST', `/retry/${id}`);
    expect(r.body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.ep.jobs.get(id)!.input).toEqual({ v: 7, sim: { fail: 'boom', durationMs: 500 } });
    h.at(11_500);
    expect(h.status(busy).body.status).toBe('COMPLETED');
    expect(h.status(id).body).toMatchObject({ id, status: 'IN_PROGRESS', delayTime: 10_000 });
    h.at(12_000);
    expect(h.status(id).body).toEqual({ id, status: 'FAILED', delayTime: 10_000, executionTime: 500, workerId: 'ep-w1', error: 'boom' });
    expect(h.status(blocker).body.status).toBe('COMPLETED');
  });

  it('answers IN_QUEUE even when an idle worker picks the job up at once', () => {
    const h = harness();
    const id = h.run({ sim: { fail: true, durationMs: 100 } }).body.id;
    h.at(100);
    expect(h.status(id).body.error).toBe('simulated failure');
    expect(h.req('POST', `/retry/${id}`).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: 0, workerId: 'ep-w1' });
  });

  it('re-queues a TIMED_OUT job, which runs again from the start', () => {
    const h = harness();
    const id = h.run(long(8000), { policy: { executionTimeout: 6000 } }).body.id;
    h.at(6000);
    expect(h.status(id).body.status).toBe('TIMED_OUT');
    expect(h.req('POST', `/retry/${id}`).body).toEqual({ id, status: 'IN_QUEUE' });
    h.at(11_999);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 5999 });
    h.at(12_000);
    expect(h.status(id).body).toEqual({
      id,
      status: 'TIMED_OUT',
      delayTime: 0,
      executionTime: 6000,
      workerId: 'ep-w1',
      error: 'execution timeout of 6000 ms exceeded',
    });
  });

  it.each([
    ['IN_QUEUE', 0],
    ['IN_PROGRESS', 0],
    ['COMPLETED', 2000],
    ['CANCELLED', 0],
  ])('refuses a %s job with 400 API_ERR_NOT_RETRYABLE', (state, atMs) => {
    const h = harness({ workersMax: 1 });
    const a = h.run(long(1000)).body.id;
    const b = h.run(long(1000)).body.id;
    if (state === 'CANCELLED') h.req('POST', `/cancel/${b}`);
    h.at(atMs);
    const id = state === 'IN_PROGRESS' ? a : b;
    expect(h.status(id).body.status).toBe(state);
    const r = h.req('POST', `/retry/${id}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('API_ERR_NOT_RETRYABLE');
    expect(h.status(id).body.status).toBe(state);
  });

  it('cannot retry once the result has expired (404)', () => {
    const h = harness();
    const id = h.run({ sim: { fail: true } }).body.id;
    h.at(1000 + 1_800_000 - 1);
    expect(h.status(id).body.status).toBe('FAILED');
    h.at(1000 + 1_800_000);
    const r = h.req('POST', `/retry/${id}`);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('API_ERR_JOB_NOT_FOUND');
  });

  it('counts a retry in /health jobs.retried', () => {
    const h = harness();
    const id = h.run({ sim: { fail: true } }).body.id;
    h.at(1000);
    h.req('POST', `/retry/${id}`);
    expect(h.req('GET', '/health').body.jobs.retried).toBe(1);
  });
});

describe('execution timeout (spec §3, §8.5; FACTS: TIMED_OUT)', () => {
  it('the endpoint default ends a job TIMED_OUT at exactly start + timeout', () => {
    const h = harness({ executionTimeoutMs: 7000, coldStartMs: 1500 });
    const id = h.run(long(20_000)).body.id;
    h.at(1500 + 7000 - 1);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(1500 + 7000);
    expect(h.status(id).body).toEqual({
      id,
      status: 'TIMED_OUT',
      delayTime: 1500,
      executionTime: 7000,
      workerId: 'ep-w1',
      error: 'execution timeout of 7000 ms exceeded',
    });
  });

  it('the built-in default is 600000 ms', () => {
    const h = harness();
    const id = h.run(long(700_000)).body.id;
    h.at(599_999);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(600_000);
    expect(h.status(id).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 600_000 });
  });

  it('policy.executionTimeout overrides the endpoint for that job only', () => {
    const h = harness({ executionTimeoutMs: 60_000 });
    const a = h.run(long(30_000), { policy: { executionTimeout: 5001 } }).body.id;
    const b = h.run(long(30_000)).body.id;
    h.at(5001);
    expect(h.status(a).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 5001 });
    // b started at 4 s on a second worker (QUEUE_DELAY) and runs its full 30 s.
    expect(h.status(b).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 4000 });
    h.at(34_000);
    expect(h.status(b).body.status).toBe('COMPLETED');
  });

  it('a job whose duration equals its timeout completes', () => {
    const h = harness();
    const id = h.run(long(6000), { policy: { executionTimeout: 6000 } }).body.id;
    h.at(6000);
    expect(h.status(id).body.status).toBe('COMPLETED');
  });

  it('counts TIMED_OUT in /health jobs.failed and frees the worker for the next job', () => {
    const h = harness({ workersMax: 1 });
    h.run(long(9000), { policy: { executionTimeout: 6000 } });
    const b = h.run({}).body.id;
    h.at(6000);
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ failed: 1, completed: 0 });
    expect(h.status(b).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 6000 });
  });
});

describe('purge-queue (spec §3, FACTS)', () => {
  it('removes only queued jobs; running ones continue', () => {
    const h = harness({ workersMax: 2 });
    const ids = [0, 1, 2, 3, 4, 5].map(() => h.run(long(3000)).body.id as string);
    // Job 0 starts a worker at 0; job 1 follows it at 3 s; QUEUE_DELAY adds a second worker for job 2 at 4 s.
    h.at(4000);
    const r = h.req('POST', '/purge-queue');
    expect(r.body).toEqual({ removed: 3, status: 'completed' });
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ inQueue: 0, inProgress: 2 });
    expect(h.status(ids[1]!).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 3000, workerId: 'ep-w1' });
    expect(h.status(ids[2]!).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 4000, workerId: 'ep-w2' });
    for (const id of ids.slice(3)) expect(h.status(id).status).toBe(404);
    h.at(7000);
    for (const id of ids.slice(0, 3)) expect(h.status(id).body.status).toBe('COMPLETED');
  });

  it('emits job.purged per removed job; a held /runsync of a purged job answers 404', () => {
    const h = harness({ workersMax: 0 });
    const ev = h.events();
    const sync = h.runsync({});
    const id = h.run({}).body.id;
    h.at(500);
    h.req('POST', '/purge-queue');
    expect(ev.filter((e) => e.type === 'job.purged').map((e) => [e.atMs, e.jobId])).toEqual([
      [500, [...ev.filter((e) => e.type === 'job.accepted')].map((e) => e.jobId)[0]],
      [500, id],
    ]);
    expect(sync.atMs).toBe(500);
    expect(sync.status).toBe(404);
    expect(sync.body.code).toBe('API_ERR_JOB_NOT_FOUND');
  });

  it('answers removed 0 on an empty queue', () => {
    const h = harness();
    expect(h.req('POST', '/purge-queue').body).toEqual({ removed: 0, status: 'completed' });
  });

  it('leaves lowPriority jobs no less purged than normal ones', () => {
    const h = harness({ workersMax: 0 });
    h.run({}, { policy: { lowPriority: true } });
    h.run({});
    expect(h.req('POST', '/purge-queue').body).toEqual({ removed: 2, status: 'completed' });
  });
});

describe('policy.ttl (FACTS: from submission, hard delete)', () => {
  it('deletes a queued job at submission + ttl', () => {
    const h = harness({ workersMax: 0 });
    const id = h.run({}, { policy: { ttl: 10_000 } }).body.id;
    h.at(9999);
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    h.at(10_000);
    expect(h.status(id).status).toBe(404);
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(0);
  });

  it('deletes a running job at submission + ttl and frees its worker', () => {
    const h = harness({ workersMax: 1, coldStartMs: 2000 });
    const id = h.run(long(60_000), { policy: { ttl: 12_000 } }).body.id;
    const next = h.run({}).body.id;
    h.at(11_999);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 2000, executionTime: 9999 });
    h.at(12_000);
    expect(h.status(id).status).toBe(404);
    expect(h.status(next).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 12_000 });
  });

  it('emits job.expired with reason ttl', () => {
    const h = harness();
    const ev = h.events();
    const id = h.run(long(60_000), { policy: { ttl: 10_000 } }).body.id;
    h.at(10_000);
    expect(ev.filter((e) => e.type === 'job.expired')).toEqual([
      { type: 'job.expired', atMs: 10_000, endpointId: 'ep', jobId: id, reason: 'ttl', status: 'IN_PROGRESS' },
    ]);
  });

  it('ends retention early when ttl from submission comes first', () => {
    const h = harness();
    const id = h.run({}, { policy: { ttl: 20_000 } }).body.id;
    h.at(19_999);
    expect(h.status(id).body.status).toBe('COMPLETED');
    h.at(20_000);
    expect(h.status(id).status).toBe(404);
  });

  it('answers a held /status-sync with 404 when the job is deleted', () => {
    const h = harness();
    const id = h.run(long(60_000), { policy: { ttl: 10_000 } }).body.id;
    const r = h.req('GET', `/status-sync/${id}`);
    expect(r.res).toBeUndefined();
    h.at(10_000);
    expect(r.atMs).toBe(10_000);
    expect(r.status).toBe(404);
  });
});

describe('lowPriority (FACTS scaling model)', () => {
  it('runs after every normal job that waits', () => {
    const h = harness({ workersMin: 1, workersMax: 1 });
    const a = h.run(long(1000)).body.id;
    const low = h.run(long(1000), { policy: { lowPriority: true } }).body.id;
    const normal = h.run(long(1000)).body.id;
    h.at(1000);
    expect(h.status(normal).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 1000 });
    expect(h.status(low).body.status).toBe('IN_QUEUE');
    h.at(2000);
    expect(h.status(low).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 2000 });
    expect(h.status(a).body.status).toBe('COMPLETED');
  });

  it('never starts a worker by itself', () => {
    const h = harness();
    const low = h.run({}, { policy: { lowPriority: true } }).body.id;
    h.at(100_000);
    expect(h.status(low).body).toEqual({ id: low, status: 'IN_QUEUE' });
    expect(h.req('GET', '/health').body.workers).toEqual({ idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 });
    // A normal job starts a worker, which then also takes the low-priority job.
    const n = h.run({}).body.id;
    expect(h.status(n).body.status).toBe('IN_PROGRESS');
    h.at(101_000);
    expect(h.status(low).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 101_000 });
  });

  it('never triggers a QUEUE_DELAY scale-up however long it waits', () => {
    const h = harness({ workersMax: 3 });
    h.run(long(100_000));
    const lows = [1, 2, 3].map(() => h.run({}, { policy: { lowPriority: true } }).body.id as string);
    h.at(50_000);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, idle: 0, initializing: 0 });
    for (const id of lows) expect(h.status(id).body.status).toBe('IN_QUEUE');
  });
});

describe('crash directive (CONTRACT §3)', () => {
  it('re-queues the job once, counts it in retries and /health retried, and the re-run completes', () => {
    const h = harness();
    const ev = h.events();
    const id = h.run({ k: 1, sim: { durationMs: 1000, crash: true } }).body.id;
    h.at(499);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 499 });
    h.at(500);
    expect(ev.filter((e) => e.type === 'job.requeued')).toEqual([{ type: 'job.requeued', atMs: 500, endpointId: 'ep', jobId: id, reason: 'crash' }]);
    // The crashed worker restarts (cold start 0) and takes the job straight back.
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: 0, workerId: 'ep-w1', retries: 1 });
    expect(h.req('GET', '/health').body.jobs.retried).toBe(1);
    h.at(1500);
    expect(h.status(id).body).toEqual({
      id,
      status: 'COMPLETED',
      delayTime: 0,
      executionTime: 1000,
      workerId: 'ep-w1',
      output: { k: 1, sim: { durationMs: 1000, crash: true } },
      retries: 1,
    });
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ retried: 1, completed: 1 });
  });

  it('the crashed job keeps its turn: it runs again before jobs queued behind it', () => {
    const h = harness({ workersMax: 1 });
    const a = h.run({ sim: { durationMs: 1000, crash: true } }).body.id;
    const b = h.run({ sim: { durationMs: 1000 } }).body.id;
    h.at(500);
    expect(h.status(a).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0, retries: 1 });
    expect(h.status(b).body).toEqual({ id: b, status: 'IN_QUEUE' });
    h.at(1500);
    expect(h.status(a).body.status).toBe('COMPLETED');
    expect(h.status(b).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 1500 });
  });

  it('waits for the cold start of the restarted worker', () => {
    const h = harness({ workersMax: 1, coldStartMs: 3000 });
    const id = h.run({ sim: { durationMs: 2000, crash: true } }).body.id;
    h.at(4000);
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE', retries: 1 });
    expect(h.req('GET', '/health').body.workers.initializing).toBe(1);
    h.at(7000);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 3000, retries: 1 });
    h.at(9000);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: 2000, retries: 1 });
  });
});
