/** Spec §5 and §7 over real HTTP: a key on every route, and the error bodies (400/401/404/405/413). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/route-table.js';
import { KEY, serve, type Served } from '../server/serve-helper.js';

let t: Served;
beforeAll(async () => {
  t = await serve({ jobDurationMs: 1000 });
});
afterAll(() => t.close());

const everyRoute = Object.entries(ROUTES).map(([name, r]) => ({
  name,
  method: r.methods[0]!,
  path: `/v2/ep/${name}${r.takesJobId ? '/some-id' : ''}`,
}));

describe('auth (spec §5)', () => {
  it.each(everyRoute)('$method $path: 401 without a key, 401 with a wrong one', async ({ method, path }) => {
    for (const auth of [null, 'Bearer nope', 'nope', 'Bearer ']) {
      const r = await t.call(method, path, undefined, { auth });
      expect(r.status).toBe(401);
      // The OpenAI routes answer OpenAI's shape (an OpenAI client's AuthenticationError reads `code`).
      if (path.includes('/openai/'))
        expect(r.body).toEqual({ error: { message: 'missing or invalid API key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      else expect(r.body).toEqual({ error: 'missing or invalid API key', code: 'API_ERR_UNAUTHORIZED' });
    }
  });

  it('accepts the key as "Bearer K" and bare', async () => {
    expect((await t.call('GET', '/health', undefined, { auth: `Bearer ${KEY}` })).status).toBe(200);
    expect((await t.call('GET', '/health', undefined, { auth: KEY })).status).toBe(200);
    expect((await t.call('GET', '/health', undefined, { auth: `bearer   ${KEY}` })).status).toBe(200);
  });

  it('admin routes need a key; /metrics and /healthz do not', async () => {
    expect((await t.call('GET', '/_sim/clock', undefined, { auth: null })).status).toBe(401);
    expect((await t.call('POST', '/_sim/advance', { ms: 1 }, { auth: 'wrong' })).body.code).toBe('SRV_ERR_UNAUTHORIZED');
    const m = await t.call('GET', '/metrics', undefined, { auth: null });
    expect(m.status).toBe(200);
    expect(m.headers['content-type']).toMatch(/^text\/plain/);
    expect(m.text).toContain('loadlab_jobs_accepted_total');
    expect((await t.call('GET', '/healthz', undefined, { auth: null })).body).toEqual({ status: 'ok' });
  });

  it('with no configured key any non-empty key passes, a missing one is 401', async () => {
    const open = await serve({}, { apiKeys: [] });
    try {
      expect((await open.call('GET', '/health', undefined, { auth: 'anything' })).status).toBe(200);
      expect((await open.call('GET', '/health', undefined, { auth: null })).status).toBe(401);
    } finally {
      await open.close();
    }
  });
});

describe('error bodies (spec §7)', () => {
  it('400 for invalid JSON, a missing input, a bad policy or input.sim, naming the field', async () => {
    const bad = await t.call('POST', '/run', undefined, { raw: '{"input": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'body is not valid JSON', code: 'API_ERR_BAD_JSON' });
    expect((await t.call('POST', '/run', {})).body).toEqual({ error: 'input: is required', code: 'API_ERR_BAD_REQUEST', field: 'input' });
    expect((await t.call('POST', '/run', { input: {}, policy: { ttl: 5 } })).body.field).toBe('policy.ttl');
    expect((await t.call('POST', '/run', { input: { sim: { durationMs: -1 } } })).body.field).toBe('input.sim.durationMs');
    expect((await t.call('POST', '/runsync?wait=5', { input: {} })).body.field).toBe('wait');
  });

  it('400 JSON for malformed percent-encoding in the path or the query', async () => {
    for (const p of ['/v2/ep/status/%E0%A4%A', '/v2/ep/status/abc?ttl=%zz', '/nowhere/%']) {
      const r = await t.call('GET', p);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('SRV_ERR_BAD_ENCODING');
    }
  });

  it('404 for an unknown endpoint, job, route; JSON 404 outside /v2', async () => {
    expect((await t.call('GET', '/v2/nope/health')).body).toEqual({ error: 'endpoint nope not found', code: 'API_ERR_ENDPOINT_NOT_FOUND' });
    expect((await t.status('missing-u1')).body.code).toBe('API_ERR_JOB_NOT_FOUND');
    expect((await t.call('GET', '/v2/ep/bogus')).body.code).toBe('API_ERR_ROUTE_NOT_FOUND');
    const r = await t.call('GET', '/favicon.ico');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body.code).toBe('SRV_ERR_NOT_FOUND');
  });

  it('405 for a wrong method; 409 for advance on a real clock', async () => {
    expect((await t.call('GET', '/run')).body.code).toBe('API_ERR_METHOD_NOT_ALLOWED');
    const real = await serve({}, {}, { clock: 'real' });
    try {
      const r = await real.call('POST', '/_sim/advance', { ms: 5 });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('SRV_ERR_CLOCK_NOT_MANUAL');
    } finally {
      await real.close();
    }
  });

  it('413 past the payload limit (10 MiB /run), after auth', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const r = await t.call('POST', '/run', undefined, { raw: big });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: `payload of ${big.length} bytes exceeds ${10 * 1024 * 1024} bytes`, code: 'API_ERR_PAYLOAD_TOO_LARGE' });
    expect((await t.call('POST', '/run', undefined, { raw: big, auth: null })).status).toBe(401);
    // A body just at the limit is read and parsed (400: not JSON).
    expect((await t.call('POST', '/run', undefined, { raw: Buffer.alloc(10 * 1024 * 1024, 0x20) })).status).toBe(400);
  });
});
