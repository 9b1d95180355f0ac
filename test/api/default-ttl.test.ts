/**
 * The default `policy.ttl` (spec §2, §8.6: 86 400 000 ms from submission, a hard delete) on jobs
 * that are alone on their endpoint: nothing else is submitted that could wake a sweep up, so the
 * deadline must be armed by the job's own submission (or retry).
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

const DAY = 86_400_000;
const TWO_DAYS = 2 * DAY;
/** A job that runs 48 h unless something ends it first (and may, with a 48 h execution timeout). */
const longRun = { sim: { durationMs: TWO_DAYS } };
const longPolicy = { policy: { executionTimeout: TWO_DAYS } };

describe('default policy.ttl on a lone job', () => {
  it('removes a queued job at exactly submission + 24 h', () => {
    const h = harness({ workersMax: 0 });
    const id = h.run({ n: 1 }).body.id;
    h.at(DAY - 1);
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(1);
    h.at(DAY);
    expect(h.status(id).status).toBe(404);
    h.at(DAY + 1);
    expect(h.status(id).body.code).toBe('API_ERR_JOB_NOT_FOUND');
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(0);
    expect(h.req('GET', '/requests').body).toEqual({ requests: [], total: 0 });
    h.at(TWO_DAYS);
    expect(h.status(id).status).toBe(404);
  });

  it('counts from submission, not from time 0', () => {
    const h = harness({ workersMax: 0 });
    h.at(5000);
    const id = h.run().body.id;
    h.at(5000 + DAY - 1);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
    h.at(5000 + DAY);
    expect(h.status(id).status).toBe(404);
  });

  it('removes a running job at submission + 24 h and frees its worker', () => {
    const h = harness();
    const ev = h.events();
    const id = h.run(longRun, longPolicy).body.id;
    h.at(DAY - 1);
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: DAY - 1, workerId: 'ep-w1' });
    h.at(DAY + 1);
    expect(h.status(id).status).toBe(404);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 0 });
    expect(ev.filter((e) => e.type === 'job.expired')).toEqual([
      { type: 'job.expired', atMs: DAY, endpointId: 'ep', jobId: id, reason: 'ttl', status: 'IN_PROGRESS' },
    ]);
  });

  it('removes a /runsync job still queued at 24 h, answering its held request 404 at that instant', () => {
    const h = harness({ workersMax: 0 });
    const r = h.runsync({}, {}, { wait: '300000' });
    expect(r.res).toBeUndefined();
    h.at(300_000);
    const id = r.body.id;
    expect(r.body).toEqual({ id, status: 'IN_QUEUE' });
    const held = h.req('GET', `/status-sync/${id}`, undefined, { wait: '300000' });
    h.at(DAY - 1);
    // The status-sync hold ended long ago; a fresh read still finds the job.
    expect(held.body).toEqual({ id, status: 'IN_QUEUE' });
    const last = h.req('GET', `/status-sync/${id}`, undefined, { wait: '300000' });
    h.at(DAY);
    expect(last.atMs).toBe(DAY);
    expect(last.status).toBe(404);
  });

  it('a completed result whose 30 min retention would outlast the ttl goes at the ttl', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: DAY - 60_000 } }, longPolicy).body.id;
    h.at(DAY - 1);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: DAY - 60_000 });
    h.at(DAY + 1);
    expect(h.status(id).status).toBe(404);
  });

  it('a failed result kept longer than the ttl (retention.runMs 48 h) goes at the ttl', () => {
    const h = harness({ retention: { runMs: TWO_DAYS, runsyncMs: 60_000 } });
    const id = h.run({ sim: { fail: 'boom' } }).body.id;
    h.at(DAY - 1);
    expect(h.status(id).body).toMatchObject({ status: 'FAILED', error: 'boom' });
    h.at(DAY + 1);
    expect(h.status(id).status).toBe(404);
  });

  it('/status?ttl longer than what is left of the ttl changes nothing', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: DAY - 60_000 } }, longPolicy).body.id;
    h.at(DAY - 30_000);
    expect(h.status(id, { ttl: '600000' }).body.status).toBe('COMPLETED');
    h.at(DAY - 1);
    expect(h.status(id).status).toBe(200);
    h.at(DAY + 1);
    expect(h.status(id).status).toBe(404);
  });
});

describe('default policy.ttl after /retry (the ttl still counts from the first submission)', () => {
  // First run times out at 23.5 h; its 30 min retention would end at 24 h exactly, so the ttl is
  // what removes it.
  const timeout = DAY - 1_800_000;

  it('a retried job running again is removed at submission + 24 h', () => {
    const h = harness();
    const id = h.run(longRun, { policy: { executionTimeout: timeout } }).body.id;
    h.at(timeout);
    expect(h.status(id).body).toMatchObject({ status: 'TIMED_OUT', executionTime: timeout });
    h.at(timeout + 1);
    expect(h.req('POST', `/retry/${id}`).body).toEqual({ id, status: 'IN_QUEUE' });
    h.at(DAY - 1);
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: 1_800_000 - 2, workerId: 'ep-w1' });
    h.at(DAY + 1);
    expect(h.status(id).status).toBe(404);
    expect(h.req('GET', '/health').body).toMatchObject({ jobs: { inProgress: 0, inQueue: 0, retried: 1 } });
  });

  it('a retried job waiting in the queue is removed at submission + 24 h', () => {
    // The only worker slot loses its host just after the first run ends, so the retry waits.
    const h = harness({ workersMax: 1, faults: [{ kind: 'throttled', workers: 1, fromMs: timeout + 1 }] });
    const id = h.run(longRun, { policy: { executionTimeout: timeout } }).body.id;
    h.at(timeout + 1);
    expect(h.req('POST', `/retry/${id}`).body).toEqual({ id, status: 'IN_QUEUE' });
    h.at(DAY - 1);
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    h.at(DAY + 1);
    expect(h.status(id).status).toBe(404);
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(0);
  });

  it('a failed lone job retried twice keeps its first deadline', () => {
    const h = harness({ retention: { runMs: TWO_DAYS, runsyncMs: 60_000 } });
    const id = h.run({ sim: { fail: true } }).body.id;
    h.at(10_000);
    expect(h.req('POST', `/retry/${id}`).status).toBe(200);
    h.at(DAY / 2);
    expect(h.req('POST', `/retry/${id}`).status).toBe(200);
    h.at(DAY - 1);
    expect(h.status(id).body.status).toBe('FAILED');
    h.at(DAY);
    expect(h.status(id).status).toBe(404);
  });
});

describe('other deadlines of a lone job', () => {
  it('a 48 h execution timeout ends a lone 72 h run at exactly start + 48 h (ttl 1 week)', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 3 * DAY } }, { policy: { executionTimeout: TWO_DAYS, ttl: 7 * DAY } }).body.id;
    h.at(TWO_DAYS - 1);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(TWO_DAYS);
    expect(h.status(id).body).toMatchObject({ status: 'TIMED_OUT', executionTime: TWO_DAYS });
    h.at(TWO_DAYS + 1_800_000 - 1);
    expect(h.status(id).status).toBe(200);
    h.at(TWO_DAYS + 1_800_000);
    expect(h.status(id).status).toBe(404);
  });

  it('/status?ttl on a lone finished result removes it exactly then', () => {
    const h = harness();
    const id = h.run().body.id;
    h.at(1000);
    expect(h.status(id, { ttl: '5000' }).body.status).toBe('COMPLETED');
    h.at(5999);
    expect(h.status(id).status).toBe(200);
    h.at(6000);
    expect(h.status(id).status).toBe(404);
  });
});
