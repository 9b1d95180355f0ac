/**
 * Limits (spec §8, FACTS "Errors and limits"): per-endpoint, per-operation rate over 10 s
 * (sliding by default, fixed as an option, with a per-worker dynamic floor), concurrency of
 * requests in flight (held requests keep their slot), queue throttling, payload sizes, and the
 * `limits.enabled` / `limits.scale` switches. Exact boundaries, exact virtual times.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { harness, type Reply } from '../helpers/harness.js';

/** A queue that never throttles, so rate tests see only the rate limit. */
const noQueueLimit = { queuePerWorker: 1_000_000 };

function fire(n: number, send: () => Reply): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(send().status);
  return out;
}
const count = (xs: number[], v: number) => xs.filter((x) => x === v).length;

describe('rate limit, sliding window (default)', () => {
  it('/run: 1000 per 10 s; the 1001st is 429 cause "rate"', () => {
    const h = harness({ limits: noQueueLimit });
    const ok = fire(1000, () => h.run({}));
    expect(count(ok, 200)).toBe(1000);
    const r = h.run({});
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: 'rate limit exceeded on /run', code: 'API_ERR_RATE_LIMITED', cause: 'rate' });
  });

  it('accepts again exactly when the oldest request leaves the window', () => {
    const h = harness({ limits: noQueueLimit });
    fire(400, () => h.run({}));
    h.at(3000);
    fire(600, () => h.run({}));
    h.at(9999);
    expect(h.run({}).status).toBe(429);
    h.at(10_000);
    // The 400 from t=0 left the window: exactly 400 fit now (a 429 used up nothing).
    const at10 = fire(401, () => h.run({}));
    expect(count(at10, 200)).toBe(400);
    expect(at10[400]).toBe(429);
    h.at(12_999);
    expect(h.run({}).status).toBe(429);
    h.at(13_000);
    expect(
      count(
        fire(601, () => h.run({})),
        200,
      ),
    ).toBe(600);
  });

  it('no 10 s interval ever holds more than the limit (a request a ms under a steady stream)', () => {
    const h = harness({ limits: { operations: { health: { rate: 5 } } } });
    const accepted: number[] = [];
    for (let t = 0; t < 30_000; t += 700) {
      h.at(t);
      for (let i = 0; i < 3; i++) if (h.req('GET', '/health').status === 200) accepted.push(t);
    }
    for (const t of accepted) expect(accepted.filter((u) => u > t - 10_000 && u <= t).length).toBeLessThanOrEqual(5);
    expect(accepted.length).toBeGreaterThan(10);
  });

  it('is per operation: an exhausted /run leaves /runsync, /status and /health alone', () => {
    const h = harness({ limits: noQueueLimit });
    const id = h.run({}).body.id;
    fire(999, () => h.run({}));
    expect(h.run({}).status).toBe(429);
    expect(h.status(id).status).toBe(200);
    expect(h.req('GET', '/health').status).toBe(200);
    const s = h.runsync({});
    expect(s.res).toBeUndefined(); // accepted and held
  });

  it('is per endpoint: another endpoint keeps its own budget', () => {
    const h = harness({}, { endpoints: [{ id: 'ep', limits: { operations: { 'purge-queue': { rate: 2 } } } }, { id: 'ep2' }] });
    fire(2, () => h.req('POST', '/purge-queue'));
    expect(h.req('POST', '/purge-queue').status).toBe(429);
    expect(h.req('POST', '/v2/ep2/purge-queue').status).toBe(200);
  });

  it.each([
    ['POST', '/purge-queue', 2],
    ['GET', '/requests', 10],
    ['POST', '/cancel/x-u1', 100],
    ['POST', '/retry/x-u1', 100],
    ['GET', '/health', 1000],
    ['GET', '/status/x-u1', 2000],
    ['GET', '/status-sync/x-u1', 2000],
    ['GET', '/stream/x-u1', 2000],
    ['GET', '/openai/v1/models', 2000],
  ])('%s %s: %i per 10 s by default', (method, path, limit) => {
    const h = harness();
    const answers = fire(limit, () => h.req(method, path));
    expect(answers.every((s) => s !== 429)).toBe(true);
    const r = h.req(method, path);
    expect(r.status).toBe(429);
    expect(r.body.cause).toBe('rate');
  });

  it('reports each refusal as a request.limited event', () => {
    const h = harness({ limits: { operations: { health: { rate: 1 } } } });
    const ev = h.events();
    h.at(50);
    h.req('GET', '/health');
    h.req('GET', '/health');
    expect(ev.filter((e) => e.type === 'request.limited')).toEqual([
      { type: 'request.limited', atMs: 50, endpointId: 'ep', operation: 'health', cause: 'rate' },
    ]);
  });
});

describe('rate limit, fixed window', () => {
  it('resets the count at each multiple of the window', () => {
    const h = harness({ limits: { window: 'fixed', operations: { health: { rate: 3 } } } });
    h.at(9999);
    expect(fire(4, () => h.req('GET', '/health'))).toEqual([200, 200, 200, 429]);
    h.at(10_000);
    expect(fire(4, () => h.req('GET', '/health'))).toEqual([200, 200, 200, 429]);
    h.at(19_999);
    expect(h.req('GET', '/health').status).toBe(429);
    h.at(20_000);
    expect(h.req('GET', '/health').status).toBe(200);
  });

  it('a sliding window refuses the same burst across the boundary', () => {
    const h = harness({ limits: { operations: { health: { rate: 3 } } } });
    h.at(9999);
    fire(3, () => h.req('GET', '/health'));
    h.at(10_000);
    expect(h.req('GET', '/health').status).toBe(429);
    h.at(19_998);
    expect(h.req('GET', '/health').status).toBe(429);
    h.at(19_999);
    expect(h.req('GET', '/health').status).toBe(200);
  });

  it('honours windowMs', () => {
    const h = harness({ limits: { windowMs: 1000, operations: { health: { rate: 1 } } } });
    expect(fire(2, () => h.req('GET', '/health'))).toEqual([200, 429]);
    h.at(1000);
    expect(h.req('GET', '/health').status).toBe(200);
  });
});

describe('per-worker dynamic floor', () => {
  it('effective rate = max(base, ready workers × perWorkerRate)', () => {
    const h = harness({ workersMin: 3, limits: { perWorkerRate: 5, operations: { 'purge-queue': { rate: 2 } } } });
    expect(h.req('GET', '/health').body.workers.idle).toBe(3);
    const answers = fire(16, () => h.req('POST', '/purge-queue'));
    expect(count(answers, 200)).toBe(15);
    expect(answers[15]).toBe(429);
  });

  it('falls back to the base rate with no ready worker', () => {
    const h = harness({ limits: { perWorkerRate: 5, operations: { 'purge-queue': { rate: 2 } } } });
    expect(fire(3, () => h.req('POST', '/purge-queue'))).toEqual([200, 200, 429]);
  });

  it('counts running workers but not initializing ones', () => {
    const h = harness({ coldStartMs: 1000, limits: { perWorkerRate: 5, operations: { requests: { rate: 2 } } } });
    h.run({ sim: { durationMs: 60_000 } });
    expect(h.req('GET', '/health').body.workers.initializing).toBe(1);
    expect(fire(3, () => h.req('GET', '/requests'))).toEqual([200, 200, 429]);
    h.at(1000);
    expect(h.req('GET', '/health').body.workers.running).toBe(1);
    // The window holds the 2 from t=0; the floor is now 1 running worker × 5.
    expect(fire(4, () => h.req('GET', '/requests'))).toEqual([200, 200, 200, 429]);
  });
});

describe('concurrency limit (held requests keep their slot)', () => {
  it('/runsync: the 401st held request is 429 cause "concurrency"', () => {
    const h = harness({ limits: noQueueLimit });
    const held = Array.from({ length: 400 }, () => h.runsync({ sim: { durationMs: 60_000 } }));
    expect(held.every((r) => r.res === undefined)).toBe(true);
    const r = h.runsync({});
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: 'concurrency limit exceeded on /runsync', code: 'API_ERR_CONCURRENCY_LIMITED', cause: 'concurrency' });
    expect(h.ep.jobs.size).toBe(400);
  });

  it('aborting a held request frees its slot; its job is not lost', () => {
    const h = harness({ limits: { ...noQueueLimit, operations: { runsync: { concurrency: 2 } } } });
    const a = h.runsync({ sim: { durationMs: 5000 } });
    h.runsync({ sim: { durationMs: 5000 } });
    expect(h.runsync({}).status).toBe(429);
    a.pending.abort();
    const c = h.runsync({ sim: { durationMs: 10 } });
    expect(c.res).toBeUndefined();
    const ids = [...h.ep.jobs.values()].map((j) => j.id);
    expect(ids).toHaveLength(3);
    h.at(5000);
    expect(a.res).toBeUndefined(); // an aborted request is never answered
    expect(h.status(ids[0]!).body).toMatchObject({ status: 'COMPLETED', executionTime: 5000 });
  });

  it('an answered request frees its slot at the instant it is answered', () => {
    const h = harness({ limits: { operations: { runsync: { concurrency: 1 } } } });
    h.runsync({ sim: { durationMs: 2000 } });
    h.at(1999);
    expect(h.runsync({}).status).toBe(429);
    h.at(2000);
    expect(h.runsync({}).res).toBeUndefined();
  });

  it("/status-sync and /stream long-polls hold their own operation's slots", () => {
    const h = harness({ limits: { operations: { 'status-sync': { concurrency: 1 }, stream: { concurrency: 1 } } } });
    const id = h.run({ sim: { durationMs: 60_000 } }).body.id;
    h.req('GET', `/status-sync/${id}`);
    expect(h.req('GET', `/status-sync/${id}`).body.cause).toBe('concurrency');
    h.req('GET', `/stream/${id}`);
    expect(h.req('GET', `/stream/${id}`).body.cause).toBe('concurrency');
    expect(h.status(id).status).toBe(200);
  });

  it('a request refused for concurrency does not use up the rate budget', () => {
    const h = harness({ limits: { operations: { stream: { concurrency: 1, rate: 3 } } } });
    const id = h.run({ sim: { durationMs: 60_000 } }).body.id;
    const first = h.req('GET', `/stream/${id}`);
    for (let i = 0; i < 10; i++) expect(h.req('GET', `/stream/${id}`).body.cause).toBe('concurrency');
    first.pending.abort();
    const second = h.req('GET', `/stream/${id}`);
    expect(second.res).toBeUndefined();
    second.pending.abort();
    const third = h.req('GET', `/stream/${id}`);
    expect(third.res).toBeUndefined();
    third.pending.abort();
    expect(h.req('GET', `/stream/${id}`).body.cause).toBe('rate');
  });
});

describe('queue throttling (spec §8.2)', () => {
  it('workersMax 0: 51 queued jobs are accepted, the next is 429 cause "queue"', () => {
    const h = harness({ workersMax: 0 });
    expect(
      count(
        fire(51, () => h.run({})),
        200,
      ),
    ).toBe(51);
    const r = h.run({});
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: 'queue is full (throttled) on /run', code: 'API_ERR_QUEUE_FULL', cause: 'queue' });
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(51);
  });

  it('applies to /runsync and /openai too, not to other routes', () => {
    const h = harness({ workersMax: 0 });
    fire(51, () => h.run({}));
    expect(h.runsync({}).body.cause).toBe('queue');
    const o = h.req('POST', '/openai/v1/chat/completions', { messages: [{ role: 'user', content: 'hi' }] });
    expect(o.status).toBe(429);
    expect(o.body.cause).toBe('queue');
    expect(h.req('GET', '/health').status).toBe(200);
    expect(h.req('POST', '/purge-queue').body.removed).toBe(51);
    expect(h.run({}).status).toBe(200);
  });

  it('workersMax 1: queued jobs may reach 500 (workersMax × 500), then 429', () => {
    const h = harness({ workersMax: 1 });
    h.run({ sim: { durationMs: 600_000 } }); // takes the only worker
    expect(
      count(
        fire(501, () => h.run({})),
        200,
      ),
    ).toBe(501);
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(501);
    expect(h.run({}).body.cause).toBe('queue');
  });

  it('a job leaving the queue makes room again at that instant', () => {
    const h = harness({ workersMax: 0, limits: { queueMin: 2 } });
    fire(3, () => h.run({}));
    const ids = [...h.ep.jobs.values()].map((j) => j.id);
    expect(h.run({}).status).toBe(429);
    h.req('POST', `/cancel/${ids[0]}`);
    expect(h.run({}).status).toBe(200);
  });

  it('reports the refusal as request.limited with cause queue', () => {
    const h = harness({ workersMax: 0, limits: { queueMin: 0 } });
    const ev = h.events();
    h.run({});
    h.run({});
    expect(ev.filter((e): e is Extract<SimEvent, { type: 'request.limited' }> => e.type === 'request.limited')).toEqual([
      { type: 'request.limited', atMs: 0, endpointId: 'ep', operation: 'run', cause: 'queue' },
    ]);
  });
});

describe('payload limits (spec §8.3)', () => {
  const MiB = 1024 * 1024;
  it.each([
    ['/run', 10 * MiB],
    ['/runsync', 20 * MiB],
    ['/openai/v1/chat/completions', 20 * MiB],
    ['/openai/v1/completions', 20 * MiB],
    ['/status/x-u1', MiB],
  ])('POST %s: %i bytes pass the size check, one more is 413', (path, max) => {
    const h = harness();
    const ok = h.raw({ method: 'POST', path: `/v2/ep${path}`, authorization: 'Bearer test-key', body: {}, bodyBytes: max });
    expect(ok.status).not.toBe(413);
    const r = h.raw({ method: 'POST', path: `/v2/ep${path}`, authorization: 'Bearer test-key', body: {}, bodyBytes: max + 1 });
    expect(r.status).toBe(413);
    const message = `payload of ${max + 1} bytes exceeds ${max} bytes`;
    if (path.startsWith('/openai/')) expect(r.body).toEqual({ error: { message, type: 'invalid_request_error', param: null, code: 'payload_too_large' } });
    else expect(r.body).toEqual({ error: message, code: 'API_ERR_PAYLOAD_TOO_LARGE' });
  });

  it('measures a raw body in UTF-8 bytes when bodyBytes is absent', () => {
    const h = harness({ limits: { runPayloadBytes: 20 } });
    const body = JSON.stringify({ input: { s: 'ééé' } }); // 19 chars, 22 bytes
    const r = h.raw({ method: 'POST', path: '/v2/ep/run', authorization: 'Bearer test-key', rawBody: body });
    expect(r.status).toBe(413);
    const fits = h.raw({ method: 'POST', path: '/v2/ep/run', authorization: 'Bearer test-key', rawBody: '{"input":{"s":"e"}}' });
    expect(fits.status).toBe(200);
  });

  it('is checked before the rate limit, so a too-large body uses no budget', () => {
    const h = harness({ limits: { operations: { run: { rate: 1 } } } });
    for (let i = 0; i < 5; i++)
      expect(h.raw({ method: 'POST', path: '/v2/ep/run', authorization: 'Bearer test-key', body: { input: {} }, bodyBytes: 11 * MiB }).status).toBe(413);
    expect(h.run({}).status).toBe(200);
  });
});

describe('limits switches', () => {
  it('enabled: false turns off rate, concurrency and queue limits', () => {
    const h = harness({ workersMax: 0, limits: { enabled: false } });
    expect(
      count(
        fire(1500, () => h.run({})),
        200,
      ),
    ).toBe(1500);
    const held = Array.from({ length: 450 }, () => h.runsync({}));
    expect(held.every((r) => r.res === undefined)).toBe(true);
  });

  it('enabled: false keeps the payload limits: they protect the simulator, they are not a quota', () => {
    const h = harness({ limits: { enabled: false } });
    const big = h.raw({ method: 'POST', path: '/v2/ep/run', authorization: 'Bearer test-key', body: { input: {} }, bodyBytes: 10 * 1024 * 1024 + 1 });
    expect(big.status).toBe(413);
    expect(
      h.raw({ method: 'POST', path: '/v2/ep/runsync', authorization: 'Bearer test-key', body: { input: {} }, bodyBytes: 20 * 1024 * 1024 + 1 }).status,
    ).toBe(413);
  });

  it('scale multiplies every rate and concurrency limit', () => {
    const h = harness({ limits: { ...noQueueLimit, scale: 0.1 } });
    expect(
      count(
        fire(101, () => h.run({})),
        200,
      ),
    ).toBe(100);
    const held = Array.from({ length: 41 }, () => h.runsync({ sim: { durationMs: 60_000 } }));
    expect(held.filter((r) => r.res?.status === 429)).toHaveLength(1);
    expect(held[40]!.body.cause).toBe('concurrency');
  });

  it('a null rate in operations means unlimited', () => {
    const h = harness({ limits: { operations: { 'purge-queue': { rate: null } } } });
    expect(
      count(
        fire(50, () => h.req('POST', '/purge-queue')),
        200,
      ),
    ).toBe(50);
  });
});
