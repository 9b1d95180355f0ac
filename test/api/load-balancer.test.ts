/**
 * Load-balancing endpoints (`type: load-balancer`) in process, in virtual time: routing, the
 * balancer's waits and answers, affinity, crashes, scaling, /health and metrics. Each rule names
 * its source: "docs:" (RunPod's documentation, spec/FACTS.md) or "loadlab:" (the model's own
 * choice, docs/endpoint.md "Load-balancing endpoints").
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig, type EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { harness, KEY } from '../helpers/harness.js';
import { createMetrics } from '../../src/telemetry/registry.js';
import { collectSimMetrics } from '../../src/telemetry/collector.js';
import { zeroEndpointSeries } from '../../src/telemetry/known-series.js';
import { METRIC } from '../../src/contract/metric-names.js';

const LB = { type: 'load-balancer' } as const;

function lbHarness(endpoint: Partial<EndpointConfigInput> = {}) {
  const h = harness({ ...LB, ...endpoint } as Partial<EndpointConfigInput>);
  /** A request to the endpoint's base, `/lb/ep` + path; `affinity`: the X-Runpod-Worker-Id sent back. */
  const lb = (method: string, path: string, body?: unknown, affinity?: string) =>
    h.raw({ method, path: `/lb/ep${path}`, authorization: `Bearer ${KEY}`, body, ...(affinity !== undefined ? { workerAffinity: affinity } : {}) });
  const worker = (r: { res: { headers?: Readonly<Record<string, string>> } | undefined }) => r.res?.headers?.['x-runpod-worker-id'];
  return { ...h, lb, worker, balancer: () => h.ep.health().balancer! };
}

const work = (ms: number, extra: object = {}) => ({ sim: { durationMs: ms, ...extra } });

describe('load-balancing endpoint: the done-when figures', () => {
  it('docs: a request whose only worker cannot start within 2 min ends "no workers available" at 120 s, counted as such', () => {
    const h = lbHarness({ workersMax: 1, coldStartMs: 180_000 });
    const events = h.events();
    const r = h.lb('POST', '/generate', { prompt: 'x' });
    h.at(119_999);
    expect(r.res).toBeUndefined();
    h.at(120_000);
    expect(r.atMs).toBe(120_000);
    expect(r.status).toBe(503); // loadlab: the status (RunPod documents the body only)
    expect(r.body).toEqual({ error: 'no workers available' });
    expect(h.worker(r)).toBeUndefined();
    expect(h.balancer().failed['no-workers']).toBe(1);
    expect(events.filter((e) => e.type === 'balancer.failed').map((e) => (e as { cause: string }).cause)).toEqual(['no-workers']);
    expect(h.balancer().requests).toEqual({ pending: 0, inFlight: 0 });
  });

  it('docs: five requests at once, one per worker (workerConcurrency 1, REQUEST_COUNT 1), start five workers', () => {
    const h = lbHarness({ workersMax: 10, workerConcurrency: 1, scaler: { type: 'REQUEST_COUNT', value: 1 }, coldStartMs: 5000, jobDurationMs: 1000 });
    const rs = Array.from({ length: 5 }, () => h.lb('POST', '/generate', {}));
    // The first starts a worker at once (none is live); REQUEST_COUNT starts the rest at the end of the ms.
    expect(h.ep.pool.total).toBe(1);
    h.at(1);
    expect(h.ep.pool.total).toBe(5);
    expect(h.ep.pool.startedOn[0]).toBe(5);
    expect(h.balancer().workers).toEqual({ healthy: 0, initializing: 5, unhealthy: 0 });
    expect(h.balancer().requests).toEqual({ pending: 5, inFlight: 0 });
    h.at(6000);
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(rs.map((r) => r.atMs)).toEqual([6000, 6000, 6000, 6000, 6000]);
    expect(new Set(rs.map(h.worker)).size).toBe(5);
  });
});

describe('load-balancing endpoint: routing and answers', () => {
  it('docs: a worker stops at its idle timeout, down to the REQUEST_COUNT target; any request resets its idle timer', () => {
    const h = lbHarness({ workersMax: 2, workerConcurrency: 1, coldStartMs: 0, idleTimeoutMs: 5000, jobDurationMs: 1000 });
    const first = [h.lb('POST', '/a', {}), h.lb('POST', '/b', {})];
    h.at(1);
    expect(h.ep.pool.total).toBe(2);
    h.at(3000);
    const again = h.lb('POST', '/c', {}); // the most recently idle worker takes it: its timer starts over
    h.at(6001);
    expect(h.ep.health().workers).toMatchObject({ idle: 1, ready: 1 });
    expect(h.ep.pool.byNumber(Number(h.worker(again)!.slice('ep-w'.length)))).toBeDefined();
    h.at(9001);
    expect(h.ep.pool.total).toBe(0);
    expect(first.map((r) => r.status)).toEqual([200, 200]);
  });

  it('loadlab: a custom route echoes the body after jobDurationMs, naming its worker in X-Runpod-Worker-Id', () => {
    const h = lbHarness({ workersMin: 1, jobDurationMs: 1000 });
    const r = h.lb('PUT', '/any/path', { prompt: 'hi' });
    h.at(999);
    expect(r.res).toBeUndefined();
    h.at(1000);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ prompt: 'hi' });
    expect(h.worker(r)).toBe('ep-w1');
  });

  it('loadlab: sim directives in the body steer the custom worker (duration, fail), bad ones are a 400', () => {
    const h = lbHarness({ workersMin: 1 });
    const ok = h.lb('POST', '/x', work(250));
    const failed = h.lb('POST', '/x', work(10, { fail: 'boom' }));
    const bad = h.lb('POST', '/x', { sim: { durationMs: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('sim.durationMs');
    h.at(250);
    expect(ok.atMs).toBe(250);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: 'boom' });
    expect(h.worker(failed)).toBeDefined();
  });

  it('docs: /ping is answered by a ready worker, 200 {"status": "healthy"}; a cold endpoint answers once one is ready', () => {
    const h = lbHarness({ coldStartMs: 3000 });
    const r = h.lb('GET', '/ping');
    h.at(2999);
    expect(r.res).toBeUndefined();
    h.at(3000);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'healthy' });
    expect(h.worker(r)).toBe('ep-w1');
  });

  it('loadlab: a ready worker with room takes the request: the most recently idle, then the fewest in flight (oldest on a tie)', () => {
    const h = lbHarness({ workersMin: 2, workerConcurrency: 2, jobDurationMs: 10_000 });
    const rs = [h.lb('POST', '/a', {}), h.lb('POST', '/b', {}), h.lb('POST', '/c', {})];
    expect(h.balancer().requests).toEqual({ pending: 0, inFlight: 3 });
    h.at(10_000);
    expect(rs.map(h.worker)).toEqual(['ep-w2', 'ep-w1', 'ep-w1']);
  });

  it('loadlab: with every worker full, a request waits at the balancer and the first worker with room takes it', () => {
    const h = lbHarness({ workersMin: 1, workersMax: 1, workerConcurrency: 1 });
    const a = h.lb('POST', '/a', work(5000));
    const b = h.lb('POST', '/b', work(1000));
    expect(h.balancer().requests).toEqual({ pending: 1, inFlight: 1 });
    h.at(6000);
    expect(a.atMs).toBe(5000);
    expect(b.atMs).toBe(6000);
    expect(h.worker(b)).toBe('ep-w1');
  });

  it('docs: a request ends after 5.5 min (loadlab: 504 "request timed out"), counted as a timeout', () => {
    const h = lbHarness({ workersMin: 1, jobDurationMs: 400_000 });
    const r = h.lb('POST', '/slow', {});
    h.at(329_999);
    expect(r.res).toBeUndefined();
    h.at(330_000);
    expect(r.status).toBe(504);
    expect(r.body).toEqual({ error: 'request timed out after 330000 ms' });
    expect(h.worker(r)).toBe('ep-w1');
    expect(h.balancer().failed.timeout).toBe(1);
  });

  it('docs: no retries: a worker crash fails every request it holds (loadlab: 502, counted as dropped); the worker restarts', () => {
    const h = lbHarness({ workersMin: 1, workerConcurrency: 2 });
    const a = h.lb('POST', '/a', work(10_000));
    const b = h.lb('POST', '/b', work(2000, { crash: true }));
    h.at(1000);
    for (const r of [a, b]) {
      expect(r.atMs).toBe(1000);
      expect(r.status).toBe(502);
      expect(r.body).toEqual({ error: 'worker dropped the request' });
      expect(h.worker(r)).toBe('ep-w1');
    }
    expect(h.balancer().failed.dropped).toBe(2);
    expect(h.ep.health().jobs.retried).toBe(0);
    const c = h.lb('POST', '/c', work(10));
    h.at(1010);
    expect(c.status).toBe(200);
  });

  it('loadlab: queue routes on a load-balancing endpoint and /lb paths on a queue endpoint answer 404 saying where to go; /health answers', () => {
    const h = lbHarness();
    const run = h.req('POST', '/run', { input: {} });
    expect(run.status).toBe(404);
    expect(run.body.error).toMatch(/load-balancing endpoint.*\/lb\/ep\//);
    expect(h.req('POST', '/openai/v1/chat/completions', {}).status).toBe(404);
    const health = h.req('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.balancer).toEqual({
      requests: { pending: 0, inFlight: 0 },
      workers: { healthy: 0, initializing: 0, unhealthy: 0 },
      failed: { 'no-workers': 0, timeout: 0, dropped: 0, 'worker-timeout': 0, 'worker-gone': 0 },
    });
    const q = harness();
    const lb = q.raw({ method: 'GET', path: '/lb/ep/ping', authorization: `Bearer ${KEY}` });
    expect(lb.status).toBe(404);
    expect(lb.body.error).toMatch(/queue endpoint/);
    expect(q.req('GET', '/health').body.balancer).toBeUndefined();
  });

  it('loadlab: a payload over 30 MiB is a 413; a missing key a 401', () => {
    const h = lbHarness({ workersMin: 1 });
    expect(h.raw({ method: 'POST', path: '/lb/ep/x', authorization: `Bearer ${KEY}`, body: {}, bodyBytes: 30 * 1024 * 1024 + 1 }).status).toBe(413);
    expect(h.raw({ method: 'POST', path: '/lb/ep/x', body: {} }).status).toBe(401);
  });
});

describe('load-balancing endpoint: worker affinity (X-Runpod-Worker-Id sent back)', () => {
  it('docs: a bare id prefers that worker when it has room, else the request is routed as any other (soft)', () => {
    const h = lbHarness({ workersMin: 2, jobDurationMs: 1000 });
    const a = h.lb('POST', '/a', {}, 'ep-w1');
    const b = h.lb('POST', '/b', {}, 'ep-w1');
    h.at(1000);
    expect(h.worker(a)).toBe('ep-w1');
    expect(h.worker(b)).toBe('ep-w2');
  });

  it('docs: strict waits while its worker is at capacity, then 400 worker_timeout after 5 min, though another worker is idle', () => {
    const h = lbHarness({ workersMin: 2, jobDurationMs: 320_000 });
    const busy = h.lb('POST', '/busy', {});
    const strict = h.lb('POST', '/s', {}, 'strict ep-w2');
    expect(h.balancer().requests).toEqual({ pending: 1, inFlight: 1 });
    h.at(299_999);
    expect(strict.res).toBeUndefined();
    h.at(300_000);
    expect(strict.status).toBe(400);
    expect(strict.body).toEqual({ error: 'worker_timeout' });
    expect(h.balancer().failed['worker-timeout']).toBe(1);
    h.at(320_000);
    expect(h.worker(busy)).toBe('ep-w2');
  });

  it('docs: strict is served by its worker as soon as it has room', () => {
    const h = lbHarness({ workersMin: 2, jobDurationMs: 1000 });
    h.lb('POST', '/busy', work(10_000));
    const strict = h.lb('POST', '/s', {}, 'strict ep-w2');
    h.at(11_000);
    expect(strict.atMs).toBe(11_000);
    expect(h.worker(strict)).toBe('ep-w2');
  });

  it('docs: strict to a worker that no longer exists answers 404 affinity_worker_gone at once', () => {
    const h = lbHarness({ jobDurationMs: 1000, idleTimeoutMs: 0 });
    const first = h.lb('POST', '/a', {});
    h.at(1001);
    expect(h.worker(first)).toBe('ep-w1');
    expect(h.ep.pool.total).toBe(0); // its idle timeout (0) stopped it once idle
    const gone = h.lb('POST', '/b', {}, 'strict ep-w1');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'affinity_worker_gone' });
    expect(h.balancer().failed['worker-gone']).toBe(1);
    expect(h.lb('POST', '/c', {}, 'strict other-w1').status).toBe(404);
    expect(h.lb('POST', '/c', {}, 'strict').status).toBe(400);
  });

  it('docs: strict-resume wakes its scaled-down worker, under its own id', () => {
    const h = lbHarness({ jobDurationMs: 1000, coldStartMs: 5000, idleTimeoutMs: 0 });
    h.lb('POST', '/a', {});
    h.at(6001);
    expect(h.ep.pool.total).toBe(0);
    const r = h.lb('POST', '/b', {}, 'strict-resume ep-w1');
    h.advance(0);
    expect(h.ep.pool.total).toBe(1);
    h.at(6001 + 5000 + 1000);
    expect(r.status).toBe(200);
    expect(h.worker(r)).toBe('ep-w1');
  });
});

describe('load-balancing endpoint: strict-resume without a cold start', () => {
  it('loadlab: a worker resumed with no cold start takes its request at once', () => {
    const h = lbHarness({ jobDurationMs: 1000, idleTimeoutMs: 0 });
    h.lb('POST', '/a', {});
    h.at(1001);
    expect(h.ep.pool.total).toBe(0);
    const r = h.lb('POST', '/b', {}, 'strict-resume ep-w1');
    h.at(2001);
    expect(r.status).toBe(200);
    expect(h.worker(r)).toBe('ep-w1');
  });
});

describe('load-balancing endpoint: strict-resume and the other requests', () => {
  it('loadlab: the worker strict-resume wakes with no cold start serves that request before those in the shared wait', () => {
    const h = lbHarness({ workersMax: 2, workerConcurrency: 1, idleTimeoutMs: 0, scaler: { type: 'REQUEST_COUNT', value: 2 } });
    h.lb('POST', '/a', work(1000));
    h.at(1001);
    expect(h.ep.pool.total).toBe(0);
    const waiting = [h.lb('POST', '/b', work(10_000)), h.lb('POST', '/c', work(10_000))];
    const resumed = h.lb('POST', '/d', work(10_000), 'strict-resume ep-w1');
    h.at(21_001);
    expect([resumed.atMs, h.worker(resumed)]).toEqual([11_001, 'ep-w1']);
    expect(waiting.map((r) => [r.atMs, h.worker(r)])).toEqual([
      [11_001, 'ep-w2'],
      [21_001, 'ep-w2'],
    ]);
  });

  it('loadlab: a strict-resume start puts the workers above the target: a worker idle past its timeout stops at the end of the ms', () => {
    // workersMin 1 keeps w2 idle past its 5 s timeout once w1 (the older idle worker) stopped.
    const h = lbHarness({ workersMin: 1, workersMax: 2, workerConcurrency: 1, coldStartMs: 10_000, idleTimeoutMs: 5000 });
    h.lb('POST', '/x', work(1000));
    h.lb('POST', '/x', work(2000));
    h.at(30_000);
    expect(h.ep.health().workers).toMatchObject({ idle: 1, running: 0 });
    expect(h.ep.pool.byNumber(1)).toBeUndefined();
    h.lb('POST', '/x', work(0), 'strict-resume ep-w1');
    expect(h.ep.health().workers).toMatchObject({ idle: 1, initializing: 1 });
    h.at(30_001);
    expect(h.ep.health().workers).toMatchObject({ idle: 0, initializing: 1 });
  });
});

describe('load-balancing endpoint: an LLM engine worker', () => {
  const engine = { workersMin: 1, workerConcurrency: 4, llm: { outputTokens: 8, engine: { decodeMs: 5, overheadMs: 10 } } };

  it('loadlab: /v1/chat/completions streams token by token from a batching worker, naming it', () => {
    const h = lbHarness(engine);
    const body = { model: 'm', messages: [{ role: 'user', content: 'hello there' }], stream: true };
    const rs = [h.lb('POST', '/v1/chat/completions', body), h.lb('POST', '/v1/chat/completions', body)];
    h.advance(1000);
    for (const r of rs) {
      expect(r.status).toBe(200);
      expect(h.worker(r)).toBe('ep-w1');
      const feed = r.res!.feed!;
      expect(feed.ended).toBe(true);
      expect(feed.events.at(-1)).toBe('[DONE]');
    }
    expect(h.ep.engines.running).toBe(0);
    const plain = h.lb('POST', '/v1/chat/completions', { ...body, stream: false });
    const ping = h.lb('GET', '/ping');
    const models = h.lb('GET', '/v1/models');
    h.advance(1000);
    expect(plain.body.usage.completion_tokens).toBe(8);
    expect(ping.body).toEqual({ status: 'healthy' });
    expect(models.body.data[0].id).toBe('loadlab-sim');
    expect(h.lb('POST', '/v1/chat/completions', { messages: [] }).body.error).toMatchObject({ param: 'messages', type: 'invalid_request_error' });
  });
});

describe('load-balancing endpoint: metrics', () => {
  it('loadlab: failed requests by cause are counted from 0 (serve /metrics), the no-workers one among them', async () => {
    const h = lbHarness({ workersMax: 1, coldStartMs: 180_000 });
    const m = createMetrics();
    zeroEndpointSeries(m, h.ep.cfg);
    collectSimMetrics(h.sim, m);
    h.lb('POST', '/generate', {});
    h.at(120_000);
    const text = await m.registry.getSingleMetricAsString(METRIC.balancerFailed);
    expect(text).toContain(`${METRIC.balancerFailed}{endpoint="ep",cause="no-workers"} 1`);
    expect(text).toContain(`${METRIC.balancerFailed}{endpoint="ep",cause="timeout"} 0`);
    expect(await m.registry.getSingleMetricAsString(METRIC.balancerPending)).toContain(`${METRIC.balancerPending}{endpoint="ep"} 0`);
  });
});

describe('load-balancing endpoint: config', () => {
  const issues = (e: object) => {
    const p = parseSimConfig({ endpoints: [{ id: 'ep', ...LB, ...e }] });
    return p.ok ? [] : p.issues;
  };

  it('loadlab: defaults: REQUEST_COUNT at workerConcurrency requests per worker, a 5.5-min request limit', () => {
    const p = parseSimConfig({ endpoints: [{ id: 'ep', ...LB, workerConcurrency: 4, preset: 'rest' }] });
    expect(p.ok && p.config.endpoints[0]).toMatchObject({ scaler: { type: 'REQUEST_COUNT', value: 4 }, executionTimeoutMs: 330_000, idleTimeoutMs: 10_000 });
  });

  it('loadlab: QUEUE_DELAY and a request limit over 5.5 min are refused, naming the field', () => {
    expect(issues({ scaler: { type: 'QUEUE_DELAY', value: 4 } })).toEqual([
      { path: 'endpoints.0.scaler.type', message: expect.stringMatching(/REQUEST_COUNT/) },
    ]);
    expect(issues({ executionTimeoutMs: 600_000 })).toEqual([{ path: 'endpoints.0.executionTimeoutMs', message: expect.stringMatching(/330000/) }]);
    expect(issues({ executionTimeoutMs: 60_000 })).toEqual([]);
  });
});

describe('load-balancing endpoint: determinism', () => {
  it('loadlab: the same requests and seed give the same answers, workers and instants', () => {
    const once = () => {
      const h = lbHarness({
        workersMax: 4,
        workerConcurrency: 2,
        coldStartMs: { dist: 'uniform', minMs: 1000, maxMs: 9000 },
        jobDurationMs: { dist: 'exponential', meanMs: 3000 },
      });
      const rs = Array.from({ length: 40 }, (_, i) => {
        h.at(i * 250);
        return h.lb('POST', `/r${i}`, { i }, i % 7 === 3 ? 'ep-w1' : undefined);
      });
      h.at(400_000);
      return rs.map((r) => [r.status, r.atMs, h.worker(r), JSON.stringify(r.body)]);
    };
    const a = once();
    expect(a.every(([s]) => s === 200)).toBe(true);
    expect(once()).toEqual(a);
  });
});
