/**
 * `serve` and load-balancing endpoints over real HTTP (docs/serve.md "Load-balancing endpoints"):
 * the base `/lb/{id}`, the Host `{id}.api.runpod.ai`, `X-Runpod-Worker-Id` both ways, the key, the
 * 30 MiB body limit, `/health` and `/metrics`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from './serve-helper.js';

let t: Served;
beforeAll(async () => {
  t = await serve(
    {},
    {
      endpoints: [
        { id: 'lb', type: 'load-balancer', workersMin: 1, workersMax: 1, jobDurationMs: 1000 },
        { id: 'cold', type: 'load-balancer', workersMax: 1, coldStartMs: 600_000 },
        { id: 'q' },
      ],
    },
    { clock: 'real', speed: 100 }, // a virtual second is 10 wall ms
  );
});
afterAll(() => t.close());

const worker = (h: Record<string, string | string[] | undefined>) => h['x-runpod-worker-id'];

describe('serve: a load-balancing endpoint at /lb/{id}', () => {
  it('knows each load-balancing endpoint base URL', () => {
    expect([...t.s.balancerUrls]).toEqual([
      ['lb', `${t.s.origin}/lb/lb`],
      ['cold', `${t.s.origin}/lb/cold`],
    ]);
  });

  it('a custom route is answered by a worker after its job time, the worker named in x-runpod-worker-id', async () => {
    const a = await t.call('POST', '/lb/lb/generate', { prompt: 'hi' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ prompt: 'hi' });
    expect(worker(a.headers)).toBe('lb-w1');
  });

  it('/ping and /v1/models are answered at once, with the worker header', async () => {
    const p = await t.call('GET', '/lb/lb/ping');
    expect([p.status, p.body, worker(p.headers)]).toEqual([200, { status: 'healthy' }, 'lb-w1']);
    const m = await t.call('GET', '/lb/lb/v1/models');
    expect(m.status).toBe(200);
    expect(worker(m.headers)).toBe('lb-w1');
  });

  it('a request whose Host is {id}.api.runpod.ai goes to that endpoint, whatever its path (and case, and port)', async () => {
    const p = await t.call('GET', '/ping', undefined, { headers: { host: 'lb.api.runpod.ai' } });
    expect([p.status, p.body, worker(p.headers)]).toEqual([200, { status: 'healthy' }, 'lb-w1']);
    const m = await t.call('GET', '/v1/models', undefined, { headers: { host: 'LB.API.RunPod.ai:443' } });
    expect(m.status).toBe(200);
    const unknown = await t.call('GET', '/ping', undefined, { headers: { host: 'nope.api.runpod.ai' } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'API_ERR_ENDPOINT_NOT_FOUND']);
    // A queue endpoint's host: its /lb routes 404 pointing at /v2.
    const q = await t.call('GET', '/ping', undefined, { headers: { host: 'q.api.runpod.ai' } });
    expect(q.status).toBe(404);
    expect(q.body.error).toMatch(/use \/v2\/q\//);
  });

  it('X-Runpod-Worker-Id is handed to the balancer: strict affinity to a worker that never existed is 404 affinity_worker_gone; a malformed one 400', async () => {
    const gone = await t.call('GET', '/lb/lb/ping', undefined, { headers: { 'x-runpod-worker-id': 'strict lb-w9' } });
    expect([gone.status, gone.body]).toEqual([404, { error: 'affinity_worker_gone' }]);
    const bad = await t.call('GET', '/lb/lb/ping', undefined, { headers: { 'x-runpod-worker-id': 'strict' } });
    expect(bad.status).toBe(400);
    const soft = await t.call('GET', '/lb/lb/ping', undefined, { headers: { 'x-runpod-worker-id': 'lb-w1' } });
    expect([soft.status, worker(soft.headers)]).toEqual([200, 'lb-w1']);
  });

  it('needs the API key as /v2 does (Authorization: Bearer K)', async () => {
    const none = await t.call('GET', '/lb/lb/ping', undefined, { auth: null });
    expect(none.status).toBe(401);
    const viaHost = await t.call('GET', '/ping', undefined, { auth: null, headers: { host: 'lb.api.runpod.ai' } });
    expect(viaHost.status).toBe(401);
  });

  it('takes bodies up to 30 MiB (413 beyond), where /v2 routes stop at 10 or 20 MiB', async () => {
    const MiB = 1024 * 1024;
    const body = (bytes: number) => {
      const head = '{"sim":{"output":"ok"},"pad":"';
      return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
    };
    const ok = await t.call('POST', '/lb/lb/big', undefined, { raw: body(25 * MiB), headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('ok');
    const tooBig = await t.call('POST', '/lb/lb/big', undefined, { raw: body(30 * MiB + 1), headers: { 'content-type': 'application/json' } });
    expect(tooBig.status).toBe(413);
  });

  it('/health of a load-balancing endpoint has its balancer section; /metrics its failed and pending series', async () => {
    // One request that waits for a worker that takes 10 min to start: pending, then no-workers at 2 min.
    const sent = Date.now();
    const r = t.call('POST', '/lb/cold/x', {});
    await new Promise((x) => setTimeout(x, 100));
    const h1 = await t.call('GET', '/v2/cold/health');
    expect(h1.body.balancer.requests).toEqual({ pending: 1, inFlight: 0 });
    const m1 = (await t.call('GET', '/metrics')).text;
    expect(m1).toContain('loadlab_balancer_requests_pending{endpoint="cold"} 1');
    const a = await r;
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1150); // 120 virtual s
    expect([a.status, a.body]).toEqual([503, { error: 'no workers available' }]);
    const h2 = await t.call('GET', '/v2/cold/health');
    expect(h2.body.balancer.failed['no-workers']).toBe(1);
    const m2 = (await t.call('GET', '/metrics')).text;
    expect(m2).toContain('loadlab_balancer_requests_failed_total{endpoint="cold",cause="no-workers"} 1');
    expect(m2).toContain('loadlab_balancer_requests_pending{endpoint="cold"} 0');
    expect(m2).toMatch(/loadlab_http_requests_total\{route="lb",status="503"\} 1/);
  });
});
