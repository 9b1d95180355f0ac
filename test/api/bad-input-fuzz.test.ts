/**
 * A few thousand random malformed requests (fixed fast-check seeds): the core never throws, answers
 * each one synchronously with a JSON 4xx `{error, code, field?}` whose code (and field, for 400s)
 * is the one the malformation calls for, and creates no job. Limits are off so that input
 * validation, not a 429, is what answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/api/types.js';
import { harness, KEY } from '../helpers/harness.js';

const AUTH = `Bearer ${KEY}`;
const WEEK = 604_800_000;

interface Case {
  req: ApiRequest;
  code: string;
  /** Expected `field` of a 400, or undefined when the error names none. */
  field?: string;
}

const isPlain = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
const notObject = fc.anything().filter((x) => !isPlain(x));
const notInt = fc.oneof(
  fc.double({ noInteger: true }),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const notBool = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.object({ maxDepth: 1 }));
const key = (taken: string[]) => fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !taken.includes(k) && k !== '__proto__');
const SIM_KEYS = ['durationMs', 'fail', 'output', 'outputBytes', 'chunks', 'crash'];

/** [mutation of a valid job body, field it breaks]. */
type Bad = [unknown, string];
const bad = (body: unknown, field: string): Bad => [body, field];
const badBody: fc.Arbitrary<Bad> = fc.oneof<fc.Arbitrary<Bad>[]>(
  notObject.map((b) => bad(b, 'body')),
  fc.constant(bad({}, 'input')),
  notObject.filter((x) => x !== undefined).map((input) => bad({ input }, 'input')),
  notObject.map((sim) => bad({ input: { sim } }, 'input.sim')),
  key(SIM_KEYS).map((k) => bad({ input: { sim: { [k]: 1 } } }, `input.sim.${k}`)),
  fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: WEEK + 1 }), notInt).map((v) => bad({ input: { sim: { durationMs: v } } }, 'input.sim.durationMs')),
  fc.oneof(fc.integer(), fc.constant(null), fc.object({ maxDepth: 1 })).map((v) => bad({ input: { sim: { fail: v } } }, 'input.sim.fail')),
  fc
    .oneof(fc.integer({ max: -1 }), fc.integer({ min: 64 * 1024 * 1024 + 1 }), notInt)
    .map((v) => bad({ input: { sim: { outputBytes: v } } }, 'input.sim.outputBytes')),
  fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 10_001 }), notInt).map((v) => bad({ input: { sim: { chunks: v } } }, 'input.sim.chunks')),
  notBool.map((v) => bad({ input: { sim: { crash: v } } }, 'input.sim.crash')),
  notObject.filter((x) => x !== undefined).map((policy) => bad({ input: {}, policy }, 'policy')),
  key(['executionTimeout', 'lowPriority', 'ttl']).map((k) => bad({ input: {}, policy: { [k]: 1 } }, `policy.${k}`)),
  fc
    .oneof(fc.integer({ max: 5000 }), fc.integer({ min: WEEK + 1 }), notInt)
    .map((v) => bad({ input: {}, policy: { executionTimeout: v } }, 'policy.executionTimeout')),
  fc.oneof(fc.integer({ max: 9999 }), fc.integer({ min: WEEK + 1 }), notInt).map((v) => bad({ input: {}, policy: { ttl: v } }, 'policy.ttl')),
  notBool.map((v) => bad({ input: {}, policy: { lowPriority: v } }, 'policy.lowPriority')),
  fc
    .oneof(
      fc.string().filter((s) => !/http/i.test(s)),
      fc.integer(),
      fc.constant(null),
    )
    .map((w) => bad({ input: {}, webhook: w }, 'webhook')),
  notObject.filter((x) => x !== undefined).map((s) => bad({ input: {}, s3Config: s }, 's3Config')),
  key(['accessId', 'accessSecret', 'bucketName', 'endpointUrl']).map((k) => bad({ input: {}, s3Config: { [k]: 'x' } }, `s3Config.${k}`)),
  fc.oneof(fc.integer(), fc.constant(null), fc.boolean()).map((v) => bad({ input: {}, s3Config: { bucketName: v } }, 's3Config.bucketName')),
);

const submit = fc.constantFrom('/run', '/runsync');

/** Invalid JSON: whatever the middle holds, a trailing ",," can never end a JSON text. */
const badJson = fc
  .tuple(submit, fc.string({ maxLength: 40 }))
  .map(([path, s]): Case => ({ req: { method: 'POST', path: `/v2/ep${path}`, authorization: AUTH, rawBody: `{"input":${s},,` }, code: 'API_ERR_BAD_JSON' }));

const bodyCase = fc
  .tuple(submit, badBody)
  .map(([path, [body, field]]): Case => ({ req: { method: 'POST', path: `/v2/ep${path}`, authorization: AUTH, body }, code: 'API_ERR_BAD_REQUEST', field }));

const badNumber = fc.oneof(
  fc.string({ maxLength: 8 }).filter((s) => s !== '' && !/^\d{1,12}$/.test(s)),
  fc.integer({ min: 300_001 }).map(String),
  fc.integer({ min: 0, max: 999 }).map(String),
);
const queryCase = fc.oneof(
  badNumber.map(
    (wait): Case => ({
      req: { method: 'POST', path: '/v2/ep/runsync', authorization: AUTH, body: { input: {} }, query: { wait } },
      code: 'API_ERR_BAD_REQUEST',
      field: 'wait',
    }),
  ),
  fc.tuple(fc.constantFrom('status-sync', 'stream'), badNumber).map(
    ([r, wait]): Case => ({
      req: { method: 'GET', path: `/v2/ep/${r}/j-u1`, authorization: AUTH, query: { wait } },
      code: 'API_ERR_BAD_REQUEST',
      field: 'wait',
    }),
  ),
  fc
    .oneof(
      fc.string({ maxLength: 8 }).filter((s) => s !== '' && !/^\d{1,12}$/.test(s)),
      fc.integer({ min: WEEK + 1, max: 999_999_999_999 }).map(String),
    )
    .map(
      (ttl): Case => ({ req: { method: 'GET', path: '/v2/ep/status/j-u1', authorization: AUTH, query: { ttl } }, code: 'API_ERR_BAD_REQUEST', field: 'ttl' }),
    ),
);

const ROUTE_NAMES = ['run', 'runsync', 'status', 'status-sync', 'stream', 'cancel', 'retry', 'purge-queue', 'health', 'requests', 'openai'];
const segment = fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !s.includes('/'));
const routeCase = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('GET', 'POST'),
      segment.filter((s) => !ROUTE_NAMES.includes(s)),
    )
    .map(([method, r]): Case => ({ req: { method, path: `/v2/ep/${r}`, authorization: AUTH }, code: 'API_ERR_ROUTE_NOT_FOUND' })),
  fc
    .tuple(
      fc.constantFrom('GET', 'POST'),
      segment.filter((s) => s !== 'ep'),
    )
    .map(([method, e]): Case => ({ req: { method, path: `/v2/${e}/health`, authorization: AUTH }, code: 'API_ERR_ENDPOINT_NOT_FOUND' })),
  fc
    .tuple(
      fc.constantFrom('DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
      fc.constantFrom('/run', '/runsync', '/status/j-u1', '/health', '/purge-queue', '/cancel/j-u1'),
    )
    .map(([method, p]): Case => ({ req: { method, path: `/v2/ep${p}`, authorization: AUTH }, code: 'API_ERR_METHOD_NOT_ALLOWED' })),
  fc
    .tuple(fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), fc.constantFrom('/run', '/health', '/status/j-u1'))
    .filter(([a]) => a === undefined || !a.includes(KEY))
    .map(([authorization, p]): Case => ({ req: { method: 'POST', path: `/v2/ep${p}`, authorization, body: { input: {} } }, code: 'API_ERR_UNAUTHORIZED' })),
);

function check(h: ReturnType<typeof harness>, c: Case): void {
  const r = h.raw(c.req);
  expect(r.res, JSON.stringify(c.req)).toBeDefined();
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  const b = r.body;
  expect(typeof b.error).toBe('string');
  expect(b.code, JSON.stringify(c.req)).toBe(c.code);
  if (c.field !== undefined) expect(b.field, JSON.stringify(c.req)).toBe(c.field);
  expect(JSON.parse(JSON.stringify(b))).toEqual(b); // a plain JSON body
}

describe('random malformed requests', () => {
  const h = harness({ limits: { enabled: false } });
  const cases = fc.oneof(
    { arbitrary: bodyCase, weight: 6 },
    { arbitrary: badJson, weight: 1 },
    { arbitrary: queryCase, weight: 2 },
    { arbitrary: routeCase, weight: 2 },
  );

  it('4000 of them: each answered at once with the right JSON 4xx; no job created', () => {
    let n = 0;
    fc.assert(
      fc.property(cases, (c) => {
        check(h, c);
        n++;
      }),
      { seed: 20240601, numRuns: 4000 },
    );
    expect(n).toBe(4000);
    expect(h.ep.jobs.size).toBe(0);
    expect(h.req('GET', '/health').body.jobs.inQueue).toBe(0);
  });

  it('valid requests still work after the storm', () => {
    const r = h.run({ ok: true });
    expect(r.status).toBe(200);
    expect(h.status(r.body.id).body.status).toBe('IN_PROGRESS');
  });
});
