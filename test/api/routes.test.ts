/**
 * Spec §4 response bodies as FACTS.md fixes them: /run, /runsync, /status, /status-sync, /health,
 * /requests, retention (§8.4), `/status?ttl=`, s3Config never echoed (§2), and auth (§5).
 */
import { describe, expect, it } from 'vitest';
import { harness, KEY } from '../helpers/harness.js';

const UUID_U1 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-u1$/;

describe('/run', () => {
  it('answers {id, status: IN_QUEUE} at once with a UUID-shaped id ending in -u1', () => {
    const h = harness();
    const r = h.run({ a: 1 });
    expect(r.atMs).toBe(0);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['id', 'status']);
    expect(r.body.status).toBe('IN_QUEUE');
    expect(r.body.id).toMatch(UUID_U1);
  });

  it('gives distinct ids, the same sequence for the same seed', () => {
    const ids = (seed: number) => {
      const h = harness({}, { seed });
      return [1, 2, 3].map(() => h.run({}).body.id as string);
    };
    expect(new Set(ids(1)).size).toBe(3);
    expect(ids(1)).toEqual(ids(1));
    expect(ids(2)).not.toEqual(ids(1));
  });

  it('accepts unknown top-level keys (real clients add their own)', () => {
    const h = harness();
    expect(h.req('POST', '/run', { input: {}, extra: 1 }).status).toBe(200);
  });
});

describe('/runsync', () => {
  it('answers with the status body at the exact time the job completes; the id starts with sync-', () => {
    const h = harness({ coldStartMs: 250 });
    const r = h.runsync({ q: 'x', sim: { durationMs: 1234 } });
    expect(r.res).toBeUndefined();
    h.at(1483);
    expect(r.res).toBeUndefined();
    h.at(1484);
    expect(r.atMs).toBe(1484);
    expect(r.status).toBe(200);
    expect(r.body.id).toMatch(/^sync-[0-9a-f-]{36}-u1$/);
    expect(r.body).toEqual({
      id: r.body.id,
      status: 'COMPLETED',
      delayTime: 250,
      executionTime: 1234,
      workerId: 'ep-w1',
      output: { q: 'x', sim: { durationMs: 1234 } },
    });
  });

  it('answers at ?wait= with a non-terminal body; the job goes on', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 5000 } }, {}, { wait: '2000' });
    h.at(2000);
    expect(r.atMs).toBe(2000);
    const id = r.body.id;
    expect(r.body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: 2000, workerId: 'ep-w1' });
    h.at(5000);
    expect(h.status(id).body.status).toBe('COMPLETED');
  });

  it('answers IN_QUEUE when the job has not started by ?wait=', () => {
    const h = harness({ workersMax: 0 });
    const r = h.runsync({}, {}, { wait: '1000' });
    h.at(1000);
    expect(r.body).toEqual({ id: r.body.id, status: 'IN_QUEUE' });
  });

  it('holds 90 s by default', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 200_000 } });
    h.at(89_999);
    expect(r.res).toBeUndefined();
    h.at(90_000);
    expect(r.body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 90_000 });
  });

  it('answers a FAILED job with HTTP 200 and the error', () => {
    const h = harness();
    const r = h.runsync({ sim: { fail: 'bad input', durationMs: 10 } });
    h.at(10);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: r.body.id, status: 'FAILED', delayTime: 0, executionTime: 10, workerId: 'ep-w1', error: 'bad input' });
  });

  it('answers CANCELLED at the instant the held job is cancelled', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 60_000 } });
    h.at(1234);
    const id = h.ep.jobs.values().next().value!.id;
    expect(h.req('POST', `/cancel/${id}`).body).toEqual({ id, status: 'CANCELLED' });
    expect(r.atMs).toBe(1234);
    expect(r.body).toEqual({ id, status: 'CANCELLED', delayTime: 0, executionTime: 1234, workerId: 'ep-w1' });
  });

  it('an abandoned request leaves its job running to the end', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 3000 } });
    const id = h.ep.jobs.values().next().value!.id;
    h.at(1000);
    r.pending.abort();
    h.at(3000);
    expect(r.res).toBeUndefined();
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: 3000 });
  });

  it.each([['999'], ['300001'], ['abc'], ['-5'], ['1.5']])('refuses wait=%s with 400 naming "wait"', (wait) => {
    const h = harness();
    const r = h.runsync({}, {}, { wait });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'API_ERR_BAD_REQUEST', field: 'wait' });
    expect(h.ep.jobs.size).toBe(0);
  });

  it.each([['1000'], ['300000']])('accepts wait=%s', (wait) => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 400_000 } }, {}, { wait });
    h.at(Number(wait));
    expect(r.atMs).toBe(Number(wait));
  });
});

describe('/status', () => {
  it('queued: only {id, status}', () => {
    const h = harness({ workersMax: 0 });
    const id = h.run({}).body.id;
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
  });

  it('running: delayTime, executionTime so far, workerId', () => {
    const h = harness({ coldStartMs: 700 });
    const id = h.run({ sim: { durationMs: 3000 } }).body.id;
    h.at(2000);
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 700, executionTime: 1300, workerId: 'ep-w1' });
  });

  it('completed: with the output; sim.output replaces the echo', () => {
    const h = harness();
    const id = h.run({ sim: { output: { answer: 42 }, durationMs: 5 } }).body.id;
    h.at(5);
    expect(h.status(id).body).toEqual({ id, status: 'COMPLETED', delayTime: 0, executionTime: 5, workerId: 'ep-w1', output: { answer: 42 } });
  });

  it('completed with outputBytes: a string of exactly that many bytes', () => {
    const h = harness();
    const id = h.run({ sim: { outputBytes: 12_345 } }).body.id;
    h.at(1000);
    const out = h.status(id).body.output;
    expect(typeof out).toBe('string');
    expect(out.length).toBe(12_345);
  });

  it('failed: the error string and no output', () => {
    const h = harness();
    const id = h.run({ sim: { fail: true, durationMs: 30 } }).body.id;
    h.at(30);
    expect(h.status(id).body).toEqual({ id, status: 'FAILED', delayTime: 0, executionTime: 30, workerId: 'ep-w1', error: 'simulated failure' });
  });

  it('answers the same on POST', () => {
    const h = harness();
    const id = h.run({}).body.id;
    h.at(1000);
    expect(h.req('POST', `/status/${id}`).body).toEqual(h.status(id).body);
  });

  it('while running, output holds the latest streamed chunk', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000, chunks: 4 } }).body.id;
    h.at(600);
    expect(h.status(id).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: 600, workerId: 'ep-w1', output: { chunk: 2, of: 4 } });
  });

  it('answers 404 API_ERR_JOB_NOT_FOUND for an unknown id', () => {
    const h = harness();
    const r = h.status('00000000-0000-4000-8000-000000000000-u1');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('API_ERR_JOB_NOT_FOUND');
  });
});

describe('/status-sync', () => {
  it('holds until the job ends and answers at that instant', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 4321 } }).body.id;
    const r = h.req('GET', `/status-sync/${id}`);
    expect(r.res).toBeUndefined();
    h.at(4321);
    expect(r.atMs).toBe(4321);
    expect(r.body).toMatchObject({ id, status: 'COMPLETED', executionTime: 4321 });
  });

  it('answers at ?wait= with the current status, default 90 s', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 500_000 } }).body.id;
    const a = h.req('POST', `/status-sync/${id}`, undefined, { wait: '1500' });
    const b = h.req('GET', `/status-sync/${id}`);
    h.at(1500);
    expect(a.body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 1500 });
    expect(b.res).toBeUndefined();
    h.at(90_000);
    expect(b.atMs).toBe(90_000);
    expect(b.body).toMatchObject({ status: 'IN_PROGRESS', executionTime: 90_000 });
  });

  it('answers at the instant the job is cancelled', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 60_000 } }).body.id;
    const r = h.req('GET', `/status-sync/${id}`);
    h.at(777);
    h.req('POST', `/cancel/${id}`);
    expect(r.atMs).toBe(777);
    expect(r.body).toMatchObject({ id, status: 'CANCELLED', executionTime: 777 });
  });

  it('answers at once for a job already ended', () => {
    const h = harness();
    const id = h.run({}).body.id;
    h.at(5000);
    const r = h.req('GET', `/status-sync/${id}`);
    expect(r.atMs).toBe(5000);
    expect(r.body.status).toBe('COMPLETED');
  });

  it('refuses wait=999 with 400 naming "wait"', () => {
    const h = harness();
    const id = h.run({}).body.id;
    expect(h.req('GET', `/status-sync/${id}`, undefined, { wait: '999' }).body).toMatchObject({ code: 'API_ERR_BAD_REQUEST', field: 'wait' });
  });
});

describe('/health', () => {
  it('has every key from the start, all zero', () => {
    const h = harness();
    expect(h.req('GET', '/health').body).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
      workers: { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 },
    });
  });

  it('counts jobs cumulatively and workers by state', () => {
    const h = harness({ workersMax: 2, coldStartMs: 1000, idleTimeoutMs: 60_000 });
    h.run({ sim: { durationMs: 1000 } });
    h.run({ sim: { durationMs: 2000, fail: true } });
    h.run({ sim: { durationMs: 10_000 } });
    h.at(500);
    expect(h.req('GET', '/health').body).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 3, retried: 0 },
      workers: { idle: 0, initializing: 1, ready: 0, running: 0, throttled: 0, unhealthy: 0 },
    });
    h.at(1000); // w1 ready, runs job 1 (1000-2000)
    h.at(4000); // QUEUE_DELAY adds w2 at 4 s, ready at 5 s
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 1, running: 1 });
    // At 4 s job 2 fails and w1 takes job 3; w2 comes up idle at 5 s.
    h.at(5000);
    expect(h.req('GET', '/health').body).toEqual({
      jobs: { completed: 1, failed: 1, inProgress: 1, inQueue: 0, retried: 0 },
      workers: { idle: 1, initializing: 0, ready: 2, running: 1, throttled: 0, unhealthy: 0 },
    });
    h.at(20_000);
    expect(h.req('GET', '/health').body).toEqual({
      jobs: { completed: 2, failed: 1, inProgress: 0, inQueue: 0, retried: 0 },
      workers: { idle: 2, initializing: 0, ready: 2, running: 0, throttled: 0, unhealthy: 0 },
    });
  });

  it('keeps counting after the jobs themselves have expired', () => {
    const h = harness();
    for (let i = 0; i < 3; i++) h.run({ sim: { durationMs: 0 } });
    h.at(3_600_000);
    expect(h.ep.jobs.size).toBe(0);
    expect(h.req('GET', '/health').body.jobs.completed).toBe(3);
  });
});

describe('/requests (FACTS choice: known jobs, newest first)', () => {
  it("lists the endpoint's jobs newest first with their status", () => {
    const h = harness({ workersMax: 1 });
    const ids = [0, 1, 2].map(() => h.run({ sim: { durationMs: 1000 } }).body.id as string);
    expect(h.req('GET', '/requests').body).toEqual({
      requests: [
        { id: ids[2], status: 'IN_QUEUE' },
        { id: ids[1], status: 'IN_QUEUE' },
        { id: ids[0], status: 'IN_PROGRESS' },
      ],
      total: 3,
    });
  });

  it('lists at most 100 jobs but counts them all', () => {
    const h = harness({ workersMax: 0, limits: { queueMin: 1000 } });
    for (let i = 0; i < 120; i++) h.run({});
    const b = h.req('GET', '/requests').body;
    expect(b.requests).toHaveLength(100);
    expect(b.total).toBe(120);
  });
});

describe('retention (spec §8.4)', () => {
  it('keeps a /run result 30 min after it ends', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000 } }).body.id;
    h.at(1000 + 1_800_000 - 1);
    expect(h.status(id).body.status).toBe('COMPLETED');
    h.at(1000 + 1_800_000);
    expect(h.status(id).status).toBe(404);
  });

  it('keeps a /runsync result 60 s after it ends', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 1000 } });
    h.at(1000);
    const id = r.body.id;
    h.at(60_999);
    expect(h.status(id).body.status).toBe('COMPLETED');
    h.at(61_000);
    expect(h.status(id).status).toBe(404);
  });

  it('counts runsync retention from the end, not from the ?wait= answer', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 5000 } }, {}, { wait: '1000' });
    h.at(1000);
    const id = r.body.id;
    h.at(64_999);
    expect(h.status(id).body.status).toBe('COMPLETED');
    h.at(65_000);
    expect(h.status(id).status).toBe(404);
  });

  it('applies to cancelled jobs too', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 9000 } }).body.id;
    h.at(100);
    h.req('POST', `/cancel/${id}`);
    h.at(100 + 1_800_000 - 1);
    expect(h.status(id).body.status).toBe('CANCELLED');
    h.at(100 + 1_800_000);
    expect(h.status(id).status).toBe(404);
  });

  it('/status?ttl= on an ended job drops it that many ms later', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000 } }).body.id;
    h.at(2000);
    expect(h.status(id, { ttl: '3000' }).body.status).toBe('COMPLETED');
    h.at(4999);
    expect(h.status(id).status).toBe(200);
    h.at(5000);
    expect(h.status(id).status).toBe(404);
  });

  it('/status?ttl=0 on an ended job answers its status, then the job is gone at once', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000 } }).body.id;
    h.at(2000);
    expect(h.status(id, { ttl: '0' }).body).toMatchObject({ id, status: 'COMPLETED' });
    expect(h.status(id).status).toBe(404);
  });

  it('/status?ttl= on a running job sets its retention after it ends', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000 } }).body.id;
    expect(h.status(id, { ttl: '5000' }).body.status).toBe('IN_PROGRESS');
    h.at(5999);
    expect(h.status(id).body.status).toBe('COMPLETED');
    h.at(6000);
    expect(h.status(id).status).toBe(404);
  });

  it('/status?ttl= never extends retention', () => {
    const h = harness();
    const r = h.runsync({ sim: { durationMs: 1000 } });
    h.at(1000);
    const id = r.body.id;
    h.status(id, { ttl: '600000' });
    h.at(61_000);
    expect(h.status(id).status).toBe(404);
  });

  it.each([['-1'], ['abc'], ['604800001'], ['1e3']])('/status?ttl=%s is a 400 naming "ttl"', (ttl) => {
    const h = harness();
    const id = h.run({}).body.id;
    expect(h.status(id, { ttl }).body).toMatchObject({ code: 'API_ERR_BAD_REQUEST', field: 'ttl' });
  });
});

describe('s3Config (spec §2: accepted, never echoed)', () => {
  const s3 = { accessId: 'AKIA-SECRET-ID', accessSecret: 'very-secret-value', bucketName: 'bkt', endpointUrl: 'https://s3.example.com' };

  it('never appears in any response or webhook body', () => {
    const h = harness();
    const hooks = h.webhooks();
    const bodies: unknown[] = [];
    const a = h.run({ q: 1 }, { s3Config: s3, webhook: 'http://127.0.0.1:9/hook' });
    const s = h.runsync({ q: 2 }, { s3Config: s3 });
    const st = h.req('GET', `/stream/${a.body.id}`, undefined, { wait: '1000' });
    bodies.push(a.body, h.status(a.body.id).body);
    h.at(6000); // the runsync job waits for a second worker (QUEUE_DELAY, 4 s) and runs 1 s
    bodies.push(st.body);
    bodies.push(s.body, h.status(a.body.id).body, h.req('GET', '/requests').body, h.req('POST', `/cancel/${a.body.id}`).body);
    bodies.push(...hooks.map((x) => x.delivery.body));
    expect(hooks).toHaveLength(1);
    expect(s.body.status).toBe('COMPLETED');
    const text = JSON.stringify(bodies);
    expect(text).not.toContain('very-secret-value');
    expect(text).not.toContain('AKIA-SECRET-ID');
    expect(text).not.toContain('s3Config');
    // It is still handed to the worker as it was.
    expect(h.ep.jobs.get(a.body.id)!.s3Config).toEqual(s3);
  });
});

describe('authentication (spec §5)', () => {
  const routes: [string, string][] = [
    ['POST', '/run'],
    ['POST', '/runsync'],
    ['GET', '/status/x-u1'],
    ['POST', '/status/x-u1'],
    ['GET', '/status-sync/x-u1'],
    ['GET', '/stream/x-u1'],
    ['POST', '/cancel/x-u1'],
    ['POST', '/retry/x-u1'],
    ['POST', '/purge-queue'],
    ['GET', '/health'],
    ['GET', '/requests'],
    ['GET', '/openai/v1/models'],
    ['POST', '/openai/v1/chat/completions'],
    ['POST', '/openai/v1/completions'],
  ];

  it('with no configured key, any non-empty key is accepted and a missing one is still 401', () => {
    const h = harness({}, { apiKeys: [] });
    expect(h.req('GET', '/health', undefined, undefined, 'Bearer whatever').status).toBe(200);
    expect(h.req('GET', '/health', undefined, undefined, 'bare-anything').status).toBe(200);
    expect(h.raw({ method: 'GET', path: '/v2/ep/health' }).status).toBe(401);
    expect(h.raw({ method: 'GET', path: '/v2/ep/health', authorization: 'Bearer  ' }).status).toBe(401);
  });

  it('accepts "Bearer KEY" and the bare key', () => {
    const h = harness();
    expect(h.req('GET', '/health', undefined, undefined, `Bearer ${KEY}`).status).toBe(200);
    expect(h.req('GET', '/health', undefined, undefined, `bearer ${KEY}`).status).toBe(200);
    expect(h.req('GET', '/health', undefined, undefined, `BEARER ${KEY}`).status).toBe(200);
    expect(h.req('GET', '/health', undefined, undefined, ` Bearer   ${KEY} `).status).toBe(200);
    expect(h.req('GET', '/health', undefined, undefined, KEY).status).toBe(200);
    // Only a space separates the scheme: anything else makes the whole header the (wrong) key.
    expect(h.req('GET', '/health', undefined, undefined, `Bearer\t${KEY}`).status).toBe(401);
    expect(h.req('GET', '/health', undefined, undefined, `Bearer_${KEY}`).status).toBe(401);
  });

  it.each(routes)('%s %s: missing, empty or wrong key → 401 API_ERR_UNAUTHORIZED', (method, path) => {
    const h = harness();
    for (const auth of [undefined, '', 'Bearer ', 'Bearer wrong', 'wrong', `Bearer ${KEY}x`, `${KEY.slice(0, -1)}`]) {
      const r = h.raw({ method, path: `/v2/ep${path}`, body: { input: {} }, authorization: auth });
      expect(r.status).toBe(401);
      if (path.startsWith('/openai/'))
        expect(r.body).toEqual({ error: { message: 'missing or invalid API key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      else expect(r.body).toEqual({ error: 'missing or invalid API key', code: 'API_ERR_UNAUTHORIZED' });
    }
    expect(h.ep.jobs.size).toBe(0);
  });

  it('answers 401 before revealing whether an endpoint exists', () => {
    const h = harness();
    expect(h.req('GET', '/v2/nope/health', undefined, undefined, 'Bearer wrong').status).toBe(401);
  });
});
