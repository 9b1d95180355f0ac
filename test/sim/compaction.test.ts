/**
 * Ended jobs kept as columns (job-table.ts): once a job has completed or been cancelled its object
 * is dropped and its result lives on as numbers. Nothing a client sees may change: bodies, the
 * stream's one-time output, `/requests`, `/status?ttl=`, expiry and its event.
 */
import { describe, expect, it } from 'vitest';
import { harness, KEY } from '../helpers/harness.js';
import { PreparedRoute } from '../../src/api/prepared-route.js';
import type { ApiResponse } from '../../src/api/types.js';

const MIN = 60_000;

describe('results kept as columns', () => {
  it('/status of an ended job answers the very body runsync answered at its end', () => {
    const h = harness({ workersMin: 2, coldStartMs: 0 });
    const held = h.runsync({ prompt: 'hi', sim: { durationMs: 1500 } });
    h.at(400);
    const queued = h.run({ sim: { durationMs: 500 } }).body.id as string;
    h.at(2000);
    expect(held.body).toMatchObject({ status: 'COMPLETED', executionTime: 1500, delayTime: 0, output: { prompt: 'hi', sim: { durationMs: 1500 } } });
    expect(h.status(held.body.id).body).toEqual(held.body);
    expect(h.status(queued).body).toEqual({
      id: queued,
      status: 'COMPLETED',
      delayTime: 0,
      executionTime: 500,
      workerId: expect.any(String),
      output: { sim: { durationMs: 500 } },
    });
  });

  it('a job cancelled in the queue keeps no times or worker; one cancelled while running keeps both', () => {
    const h = harness({ workersMax: 1, coldStartMs: 0 });
    const running = h.run({ sim: { durationMs: 10_000 } }).body.id as string;
    const queued = h.run({}).body.id as string;
    h.at(3000);
    h.req('POST', `/cancel/${queued}`);
    h.req('POST', `/cancel/${running}`);
    h.at(5000);
    expect(h.status(queued).body).toEqual({ id: queued, status: 'CANCELLED' });
    expect(h.status(running).body).toEqual({ id: running, status: 'CANCELLED', delayTime: 0, executionTime: 3000, workerId: expect.any(String) });
  });

  it('/stream gives a completed result once, then nothing, however often it is asked', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const id = h.run({ n: 1, sim: { durationMs: 100 } }).body.id as string;
    h.at(1000);
    expect(h.req('GET', `/stream/${id}`).body).toMatchObject({ status: 'COMPLETED', stream: [{ output: { n: 1, sim: { durationMs: 100 } } }] });
    expect(h.req('GET', `/stream/${id}`).body).toMatchObject({ status: 'COMPLETED', stream: [] });
    expect(h.status(id).body.output).toEqual({ n: 1, sim: { durationMs: 100 } });
  });

  it('/requests lists ended jobs with their ids; /status?ttl= and retention still remove them, with the event', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const seen = h.events();
    const a = h.run({ sim: { durationMs: 100 } }).body.id as string;
    const b = h.run({ sim: { durationMs: 100 } }).body.id as string;
    h.at(1000);
    expect(h.req('GET', '/requests').body).toEqual({
      requests: [
        { id: b, status: 'COMPLETED' },
        { id: a, status: 'COMPLETED' },
      ],
      total: 2,
    });
    h.status(a, { ttl: '10000' });
    h.at(11_000 - 1);
    expect(h.status(a).status).toBe(200);
    h.at(11_000);
    expect(h.status(a).status).toBe(404);
    h.at(200 + 30 * MIN);
    expect(h.status(b).status).toBe(404);
    const expired = seen.filter((e) => e.type === 'job.expired');
    expect(expired).toEqual([
      expect.objectContaining({ jobId: a, atMs: 11_000, reason: 'retention', status: 'COMPLETED' }),
      expect.objectContaining({ jobId: b, atMs: 200 + 30 * MIN, reason: 'retention', status: 'COMPLETED' }),
    ]);
  });

  it('/status of a compacted job (read from the columns) answers what the job itself would', () => {
    // `?ttl=` longer than what is left changes nothing but takes the general path (the job as
    // an object again): both answers must be the same, key order included.
    const h = harness({ workersMax: 2, coldStartMs: 0 });
    const ids = [
      h.run({ n: 1, sim: { durationMs: 300 } }).body.id as string,
      h.run({ sim: { durationMs: 5000 } }).body.id as string,
      h.run({ big: true, sim: { outputBytes: 2000 } }).body.id as string,
      h.run({}).body.id as string,
    ];
    const sync = h.runsync({ prompt: 'sync', sim: { durationMs: 200 } });
    h.at(1000);
    h.req('POST', `/cancel/${ids[1]}`);
    h.req('POST', `/cancel/${ids[3]}`);
    h.at(20_000);
    ids.push(sync.body.id as string);
    for (const id of ids) {
      const fast = h.status(id).body;
      const general = h.status(id, { ttl: String(40 * MIN) }).body;
      expect(JSON.stringify(fast)).toBe(JSON.stringify(general));
    }
    expect(h.status(ids[0]!).body).toMatchObject({ status: 'COMPLETED', output: { n: 1, sim: { durationMs: 300 } }, workerId: expect.any(String) });
    expect(h.status(ids[1]!).body).toMatchObject({ status: 'CANCELLED', executionTime: expect.any(Number), workerId: expect.any(String) });
    expect(h.status(ids[3]!).body).toEqual({ id: ids[3], status: 'CANCELLED' });
  });

  it('a job that crashed once keeps its `retries` in the body after it ended', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const id = h.run({ sim: { durationMs: 1000, crash: true } }).body.id as string;
    h.at(10_000);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', retries: 1 });
  });

  it('a forged id carrying a real sequence number is still unknown', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const id = h.run({}).body.id as string;
    h.at(10_000);
    const forged = `${id[0] === 'a' ? 'b' : 'a'}${id.slice(1)}`;
    expect(h.status(forged).status).toBe(404);
    expect(h.status(id).status).toBe(200);
  });

  it('an ended job is still found by its id, and not by a forged one, after thousands of later jobs ended', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const id = h.run({ sim: { durationMs: 10 } }).body.id as string;
    for (let i = 0; i < 5000; i++) h.run({ sim: { durationMs: 10 } });
    h.at(10 * MIN);
    const forged = `${id[0]}${id[1] === 'a' ? 'b' : 'a'}${id.slice(2)}`;
    expect(h.status(forged).status).toBe(404);
    expect(h.status(id).body).toMatchObject({ id, status: 'COMPLETED' });
  });

  it('with nobody listening for events, a result is gone exactly at its retention deadline, also from /requests', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const a = h.run({ sim: { durationMs: 100 } }).body.id as string;
    h.at(50);
    const b = h.run({ sim: { durationMs: 100 } }).body.id as string;
    // a ends at 100, b at 200 (one worker): deadlines 100 + 30 min and 200 + 30 min.
    h.at(100 + 30 * MIN - 1);
    expect(h.status(a).status).toBe(200);
    expect(h.req('GET', '/requests').body).toMatchObject({ total: 2 });
    h.at(100 + 30 * MIN);
    expect(h.status(a).status).toBe(404);
    expect(h.req('GET', `/stream/${a}`).status).toBe(404);
    expect(h.req('GET', '/requests').body).toEqual({ requests: [{ id: b, status: 'COMPLETED' }], total: 1 });
    h.at(200 + 30 * MIN);
    expect(h.status(b).status).toBe(404);
    expect(h.req('GET', '/requests').body).toEqual({ requests: [], total: 0 });
  });

  it('a result taken out of the columns again (/stream, /status?ttl= that changes nothing) still goes at its deadline', () => {
    const h = harness({ workersMin: 1, coldStartMs: 0 });
    const streamed = h.run({ sim: { durationMs: 100 } }).body.id as string;
    const ttl = h.run({ sim: { durationMs: 100 } }).body.id as string;
    h.at(1000);
    expect(h.req('GET', `/stream/${streamed}`).body).toMatchObject({ status: 'COMPLETED', stream: [{ output: { sim: { durationMs: 100 } } }] });
    // A ttl longer than what is left never extends retention: the deadline stays.
    expect(h.status(ttl, { ttl: String(40 * MIN) }).status).toBe(200);
    h.at(100 + 30 * MIN - 1);
    expect(h.status(streamed).status).toBe(200);
    h.at(100 + 30 * MIN);
    expect(h.status(streamed).status).toBe(404);
    h.at(200 + 30 * MIN - 1);
    expect(h.status(ttl).status).toBe(200);
    h.at(200 + 30 * MIN);
    expect(h.status(ttl).status).toBe(404);
    expect(h.req('GET', '/requests').body).toMatchObject({ total: 0 });
  });
});

describe('brief status bodies (PreparedRoute.brief: an in-process poller reads the status fields only)', () => {
  it('answer the full body without workerId and output, for compacted, running and failed jobs', async () => {
    const h = harness({ workersMin: 3, workersMax: 3, coldStartMs: 0 });
    const done = h.run({ n: 1, sim: { durationMs: 300 } }).body.id as string;
    const running = h.run({ sim: { durationMs: 60_000 } }).body.id as string;
    const failed = h.run({ sim: { durationMs: 200, fail: 'boom' } }).body.id as string;
    const cancelled = h.run({ sim: { durationMs: 60_000 } }).body.id as string;
    h.at(1000);
    h.req('POST', `/cancel/${cancelled}`);
    h.at(2000);
    for (const id of [done, running, failed, cancelled]) {
      const full = h.status(id).body as Record<string, unknown>;
      const prepared = h.api.prepare({ method: 'GET', path: `/v2/ep/status/${id}`, authorization: `Bearer ${KEY}` }, undefined, true);
      if (!(prepared instanceof PreparedRoute)) throw new Error(`not prepared: ${JSON.stringify(prepared)}`);
      const brief = await new Promise<ApiResponse>((resolve) => h.api.handlePrepared(prepared, id, {}, resolve));
      const { workerId, output, ...rest } = full;
      expect(workerId).toEqual(expect.any(String));
      expect(brief).toEqual({ status: 200, body: rest });
      expect(JSON.stringify(brief.body)).toBe(JSON.stringify(rest));
      if (id === done) expect(output).toEqual({ n: 1, sim: { durationMs: 300 } });
    }
    expect(h.status(failed).body).toMatchObject({ status: 'FAILED', error: 'boom' });
    expect(h.status(running).body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 2000 });
  });
});
