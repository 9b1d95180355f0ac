/**
 * Every invalid request gets the right 4xx with a JSON `{error, code, field?}` naming the field
 * (spec §7, FACTS "Errors and limits", CONTRACT §3 "invalid input.sim values answer 400"), and
 * nothing is created. Boundaries are tested on both sides.
 */
import { describe, expect, it } from 'vitest';
import { harness, KEY } from '../helpers/harness.js';

const WEEK = 604_800_000;
const AUTH = `Bearer ${KEY}`;

function expect400(body: unknown, field: string, path = '/run') {
  const h = harness();
  const r = h.req('POST', path, body);
  expect(r.atMs).toBe(0);
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ error: expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}: `)), code: 'API_ERR_BAD_REQUEST', field });
  expect(h.ep.jobs.size).toBe(0);
}
function expectOk(body: unknown) {
  const h = harness();
  const r = h.req('POST', '/run', body);
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('IN_QUEUE');
}

describe('body shape', () => {
  it('invalid JSON → 400 API_ERR_BAD_JSON', () => {
    const h = harness();
    for (const raw of ['{', '{"input":}', "{'input':{}}", 'undefined', '{"input":{}} x', '\u0000']) {
      const r = h.raw({ method: 'POST', path: '/v2/ep/run', authorization: AUTH, rawBody: raw });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'body is not valid JSON', code: 'API_ERR_BAD_JSON' });
    }
    expect(h.ep.jobs.size).toBe(0);
  });

  it('a valid raw JSON body is accepted', () => {
    const h = harness();
    const r = h.raw({ method: 'POST', path: '/v2/ep/run', authorization: AUTH, rawBody: '{"input":{"a":1}}' });
    expect(r.body.status).toBe('IN_QUEUE');
  });

  it.each([
    ['no body', undefined],
    ['null', null],
    ['an array', [{ input: {} }]],
    ['a string', 'input'],
    ['a number', 5],
  ])('body that is %s → field "body"', (_name, body) => expect400(body, 'body'));

  it('an empty raw body counts as no body → field "body"', () => {
    const h = harness();
    expect(h.raw({ method: 'POST', path: '/v2/ep/run', authorization: AUTH, rawBody: '' }).body.field).toBe('body');
  });

  it('missing input → field "input"', () => expect400({}, 'input'));
  it('input: undefined-like (explicit undefined) → field "input"', () => expect400({ input: undefined }, 'input'));
  it.each([[null], [[]], ['text'], [3], [true]])('input %j is not an object → field "input"', (input) => expect400({ input }, 'input'));
  it('the same checks apply to /runsync', () => expect400({ input: [] }, 'input', '/runsync'));
});

describe('policy', () => {
  it.each([[null], [[]], ['fast'], [1]])('policy %j → field "policy"', (policy) => expect400({ input: {}, policy }, 'policy'));
  it('executionTimeout 5000 is rejected (must be > 5000)', () => expect400({ input: {}, policy: { executionTimeout: 5000 } }, 'policy.executionTimeout'));
  it('executionTimeout 5001 is accepted', () => expectOk({ input: {}, policy: { executionTimeout: 5001 } }));
  it.each([[5000.5], ['6000'], [null], [-1], [WEEK + 1]])('executionTimeout %j is rejected', (v) =>
    expect400({ input: {}, policy: { executionTimeout: v } }, 'policy.executionTimeout'),
  );
  it('ttl 9999 is rejected', () => expect400({ input: {}, policy: { ttl: 9999 } }, 'policy.ttl'));
  it('ttl 10000 is accepted', () => expectOk({ input: {}, policy: { ttl: 10_000 } }));
  it('ttl 604800000 (one week) is accepted', () => expectOk({ input: {}, policy: { ttl: WEEK } }));
  it('ttl 604800001 is rejected', () => expect400({ input: {}, policy: { ttl: WEEK + 1 } }, 'policy.ttl'));
  it.each([[10_000.5], ['10000'], [null]])('ttl %j is rejected', (v) => expect400({ input: {}, policy: { ttl: v } }, 'policy.ttl'));
  it.each([['yes'], [1], [null]])('lowPriority %j is rejected', (v) => expect400({ input: {}, policy: { lowPriority: v } }, 'policy.lowPriority'));
  it('lowPriority false and true are accepted', () => {
    expectOk({ input: {}, policy: { lowPriority: false } });
    expectOk({ input: {}, policy: { lowPriority: true } });
  });
  it('an unknown policy key is named', () => expect400({ input: {}, policy: { priority: 1 } }, 'policy.priority'));
  it('an empty policy is accepted', () => expectOk({ input: {}, policy: {} }));
});

describe('webhook', () => {
  it.each([['not a url'], ['ftp://example.com/x'], ['javascript:alert(1)'], ['http://'], [`https://e.com/${'a'.repeat(2100)}`], ['']])(
    '%s → field "webhook"',
    (webhook) => expect400({ input: {}, webhook }, 'webhook'),
  );
  it.each([[1], [null], [{ url: 'http://x' }]])('non-string %j → field "webhook"', (webhook) => expect400({ input: {}, webhook }, 'webhook'));
  it('http and https URLs are accepted', () => {
    expectOk({ input: {}, webhook: 'http://127.0.0.1:8080/hook' });
    expectOk({ input: {}, webhook: 'https://hooks.example.com/a?b=c' });
  });
});

describe('s3Config', () => {
  it.each([[null], ['s3://b'], [[]]])('%j → field "s3Config"', (s3Config) => expect400({ input: {}, s3Config }, 's3Config'));
  it('an unknown key is named', () => expect400({ input: {}, s3Config: { region: 'x' } }, 's3Config.region'));
  it('a non-string value is named', () => expect400({ input: {}, s3Config: { bucketName: 3 } }, 's3Config.bucketName'));
  it('all four string keys are accepted', () =>
    expectOk({ input: {}, s3Config: { accessId: 'a', accessSecret: 'b', bucketName: 'c', endpointUrl: 'https://s3.example.com' } }));
});

describe('input.sim directives (CONTRACT §3)', () => {
  it.each([
    [null, 'input.sim'],
    [[], 'input.sim'],
    ['fast', 'input.sim'],
    [{ sleep: 1 }, 'input.sim.sleep'],
    [{ durationMs: -1 }, 'input.sim.durationMs'],
    [{ durationMs: 1.5 }, 'input.sim.durationMs'],
    [{ durationMs: '100' }, 'input.sim.durationMs'],
    [{ durationMs: null }, 'input.sim.durationMs'],
    [{ durationMs: 604_800_001 }, 'input.sim.durationMs'],
    [{ fail: 1 }, 'input.sim.fail'],
    [{ fail: null }, 'input.sim.fail'],
    [{ fail: {} }, 'input.sim.fail'],
    [{ outputBytes: -1 }, 'input.sim.outputBytes'],
    [{ outputBytes: 2.5 }, 'input.sim.outputBytes'],
    [{ outputBytes: 64 * 1024 * 1024 + 1 }, 'input.sim.outputBytes'],
    [{ chunks: 0 }, 'input.sim.chunks'],
    [{ chunks: 10_001 }, 'input.sim.chunks'],
    [{ chunks: '2' }, 'input.sim.chunks'],
    [{ crash: 'yes' }, 'input.sim.crash'],
    [{ crash: 1 }, 'input.sim.crash'],
  ])('sim %j → field %s', (sim, field) => expect400({ input: { sim } }, field));

  it.each([
    [{ durationMs: 0 }],
    [{ durationMs: 604_800_000 }],
    [{ fail: false }],
    [{ fail: 'x' }],
    [{ output: null }],
    [{ outputBytes: 0 }],
    [{ chunks: 1 }],
    [{ chunks: 10_000 }],
    [{ crash: false }],
    [{}],
  ])('sim %j is accepted', (sim) => expectOk({ input: { sim } }));
});

describe('query parameters', () => {
  it.each([
    ['/runsync', 'POST', 'wait', '999'],
    ['/runsync', 'POST', 'wait', '300001'],
    ['/status-sync/x-u1', 'GET', 'wait', '0'],
    ['/stream/x-u1', 'GET', 'wait', '1e4'],
    ['/status/x-u1', 'GET', 'ttl', '-1'],
    ['/status/x-u1', 'GET', 'ttl', ' 5'],
    ['/status/x-u1', 'GET', 'ttl', '0x10'],
  ])('%s?%s=%s → 400 naming the parameter', (path, method, name, value) => {
    const h = harness();
    const r = h.req(method, path, { input: {} }, { [name]: value });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'API_ERR_BAD_REQUEST', field: name });
  });

  it('an empty parameter counts as absent', () => {
    const h = harness();
    const id = h.run({}).body.id;
    expect(h.status(id, { ttl: '' }).status).toBe(200);
  });
});

describe('routes, methods, endpoints', () => {
  it.each([
    ['/v2/ep/nope'],
    ['/v2/ep'],
    ['/v2/ep/status'],
    ['/v2/ep/status/a/b'],
    ['/v2/ep/run/extra'],
    ['/v2/ep/openai/v1/embeddings'],
    ['/v2/ep/health/x'],
    ['/v2/ep//run'],
  ])('%s → 404 API_ERR_ROUTE_NOT_FOUND', (path) => {
    const h = harness();
    const r = h.raw({ method: 'POST', path, authorization: AUTH, body: { input: {} } });
    expect(r.status).toBe(404);
    // The OpenAI routes say it OpenAI's way.
    if (path.includes('/openai/')) expect(r.body.error).toMatchObject({ type: 'invalid_request_error', code: 'route_not_found', param: null });
    else expect(r.body.code).toBe('API_ERR_ROUTE_NOT_FOUND');
  });

  it('a path outside /v2 → 404, even without a key', () => {
    const h = harness();
    for (const path of ['/', '/v1/ep/run', '/run', '/v2']) {
      const r = h.raw({ method: 'GET', path });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('API_ERR_ROUTE_NOT_FOUND');
    }
  });

  it.each([
    ['GET', '/run'],
    ['PUT', '/run'],
    ['GET', '/runsync'],
    ['DELETE', '/status/x-u1'],
    ['GET', '/cancel/x-u1'],
    ['GET', '/retry/x-u1'],
    ['GET', '/purge-queue'],
    ['POST', '/health'],
    ['POST', '/requests'],
    ['PATCH', '/stream/x-u1'],
  ])('%s %s → 405 naming the allowed methods', (method, path) => {
    const h = harness();
    const r = h.req(method, path);
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({ code: 'API_ERR_METHOD_NOT_ALLOWED', error: expect.stringMatching(/use (GET|POST)/) });
  });

  it('an unknown endpoint → 404 API_ERR_ENDPOINT_NOT_FOUND', () => {
    const h = harness();
    const r = h.req('POST', '/v2/other/run', { input: {} });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'endpoint other not found', code: 'API_ERR_ENDPOINT_NOT_FOUND' });
  });

  it('answers errors in the documented order: 413 before 429 before 400', () => {
    const h = harness({ limits: { operations: { run: { rate: 1 } } } });
    expect(h.req('POST', '/run', 'bad').body.code).toBe('API_ERR_BAD_REQUEST'); // uses the one token
    expect(h.req('POST', '/run', 'bad').body.code).toBe('API_ERR_RATE_LIMITED');
    expect(h.raw({ method: 'POST', path: '/v2/ep/run', authorization: AUTH, body: 'bad', bodyBytes: 11 * 1024 * 1024 }).status).toBe(413);
  });
});
