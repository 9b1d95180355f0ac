/** Spec §8 over real HTTP in manual time: rate windows, queue throttling, concurrency, runsync waits. */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, serve, type Served } from '../server/serve-helper.js';
import { until } from './wait.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const inFlight = (s: Served, op: 'runsync' | 'status-sync') => s.s.sim.endpoints.get('ep')!.limits.snapshot(op, s.s.sim.nowMs).inFlight;

describe('rate limits (spec §8: per operation over 10 s, sliding window)', () => {
  it('/purge-queue: 2 per 10 s; the third is 429 rate until the first leaves the window', async () => {
    t = await serve();
    expect((await t.call('POST', '/purge-queue')).body).toEqual({ removed: 0, status: 'completed' });
    await t.advance(4000);
    expect((await t.call('POST', '/purge-queue')).status).toBe(200);
    const third = await t.call('POST', '/purge-queue');
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: 'rate limit exceeded on /purge-queue', code: 'API_ERR_RATE_LIMITED', cause: 'rate' });
    await t.advance(5999); // t = 9999: the request of t = 0 is still inside (t - 10 s, t]
    expect((await t.call('POST', '/purge-queue')).status).toBe(429);
    await t.advance(1); // t = 10000: it has left
    expect((await t.call('POST', '/purge-queue')).status).toBe(200);
    expect((await t.call('POST', '/purge-queue')).status).toBe(429); // t = 4000 still inside
  });

  it('a configured rate applies exactly: /run at 5 per 10 s', async () => {
    t = await serve({ workersMax: 0, limits: { operations: { run: { rate: 5 } } } });
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await t.run()).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});

describe('queue throttling (spec §8.2: more than 50 AND more than workersMax × 500)', () => {
  it('workersMax 0: 51 queued jobs are accepted, the next is 429 queue', async () => {
    t = await serve({ workersMax: 0 });
    for (let i = 0; i < 51; i++) expect((await t.run({ i })).status).toBe(200);
    expect((await t.call('GET', '/health')).body.jobs.inQueue).toBe(51);
    const r = await t.run({ i: 51 });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: 'queue is full (throttled) on /run', code: 'API_ERR_QUEUE_FULL', cause: 'queue' });
    expect((await t.call('POST', '/runsync', { input: {} })).body.cause).toBe('queue');
    // Purging the queue lifts the throttle.
    expect((await t.call('POST', '/purge-queue')).body.removed).toBe(51);
    expect((await t.run()).status).toBe(200);
  });
});

describe('concurrency (held requests keep their slot)', () => {
  it('runsync concurrency 2: a third held runsync is 429; a client that leaves frees its slot, its job stays', async () => {
    t = await serve({ jobDurationMs: 60_000, workersMax: 1, limits: { operations: { runsync: { concurrency: 2 } } } });
    const held1 = t.call('POST', '/runsync?wait=30000', { input: { n: 1 } });
    const ac = new AbortController();
    const held2 = request(`${t.s.baseUrl}/ep/runsync?wait=30000`, {
      method: 'POST',
      body: JSON.stringify({ input: { n: 2 } }),
      headers: { authorization: KEY },
      signal: ac.signal,
    }).catch((e: Error) => e.name);
    await until(() => inFlight(t!, 'runsync') === 2, 'two held runsync');
    const third = await t.call('POST', '/runsync', { input: { n: 3 } });
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: 'concurrency limit exceeded on /runsync', code: 'API_ERR_CONCURRENCY_LIMITED', cause: 'concurrency' });
    ac.abort();
    expect(await held2).toBe('AbortError');
    await until(() => inFlight(t!, 'runsync') === 1, 'slot freed');
    // The abandoned job is still there: one running, one queued.
    expect((await t.call('GET', '/health')).body.jobs).toMatchObject({ inProgress: 1, inQueue: 1 });
    const fourth = t.call('POST', '/runsync?wait=1000', { input: { n: 4 } });
    await until(() => inFlight(t!, 'runsync') === 2, 'fourth held');
    await t.advance(1000);
    expect((await fourth).body).toMatchObject({ status: 'IN_QUEUE', id: expect.stringMatching(/^sync-/) });
    await t.advance(29_000);
    expect((await held1).body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 30_000 });
  });

  it('runsync past its wait answers 200 with the live status; status-sync then waits for the end', async () => {
    t = await serve({ jobDurationMs: 5000 });
    const held = t.call('POST', '/runsync?wait=1000', { input: { x: 1 } });
    await until(() => inFlight(t!, 'runsync') === 1, 'runsync held');
    await t.advance(999);
    expect(inFlight(t, 'runsync')).toBe(1);
    await t.advance(1);
    const r = await held;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(/^sync-.*-u1$/), status: 'IN_PROGRESS', delayTime: 0, executionTime: 1000, workerId: 'ep-w1' });
    const sync = t.call('GET', `/status-sync/${r.body.id}?wait=10000`);
    await until(() => inFlight(t!, 'status-sync') === 1, 'status-sync held');
    await t.advance(4000);
    expect((await sync).body).toEqual({ id: r.body.id, status: 'COMPLETED', delayTime: 0, executionTime: 5000, workerId: 'ep-w1', output: { x: 1 } });
  });
});
