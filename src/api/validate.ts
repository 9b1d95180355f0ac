/**
 * Validation of job requests (input, webhook, policy, s3Config) and query parameters. Returns the first problem with its
 * field path; never throws on user input. Unknown top-level keys are ignored (real clients add
 * their own); unknown `policy` and `s3Config` keys are errors.
 */
import type { Submission } from '../sim/endpoint.js';
import type { JobKind } from '../contract/sim-events.js';
import { parseDirectives } from '../sim/workload.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; reason: string };

const WEEK_MS = 7 * 24 * 3600 * 1000;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
const fail = (field: string, reason: string): { ok: false; field: string; reason: string } => ({ ok: false, field, reason });

export type JobFields = Omit<Submission, 'kind' | 'id'>;

/**
 * Checks a `/run` or `/runsync` body. The submission comes back with an empty `id` for
 * `createJob` to fill in (one object per request: this runs at millions per second).
 */
export function checkJobBody(body: unknown, kind: JobKind): Checked<Submission> {
  if (!isObject(body)) return fail('body', 'must be a JSON object with an "input" object');
  if (!('input' in body) || body.input === undefined) return fail('input', 'is required');
  if (!isObject(body.input)) return fail('input', 'must be an object');
  const d = parseDirectives(body.input);
  if (!d.ok) return fail(d.field, d.reason);
  const out: Submission = {
    kind,
    id: '',
    input: body.input,
    webhook: undefined,
    s3Config: undefined,
    lowPriority: undefined,
    executionTimeoutMs: undefined,
    ttlMs: undefined,
    directives: d.directives,
  };
  if (body.webhook !== undefined) {
    if (typeof body.webhook !== 'string' || !isHttpUrl(body.webhook)) return fail('webhook', 'must be an http or https URL');
    out.webhook = body.webhook;
  }
  if (body.policy !== undefined) {
    const p = checkPolicy(body.policy);
    if (!p.ok) return p;
    Object.assign(out, p.value);
  }
  if (body.s3Config !== undefined) {
    const s = checkS3(body.s3Config);
    if (!s.ok) return s;
    out.s3Config = body.s3Config;
  }
  return { ok: true, value: out };
}

function checkPolicy(p: unknown): Checked<Pick<JobFields, 'executionTimeoutMs' | 'lowPriority' | 'ttlMs'>> {
  if (!isObject(p)) return fail('policy', 'must be an object');
  const v: Pick<JobFields, 'executionTimeoutMs' | 'lowPriority' | 'ttlMs'> = {};
  for (const k of Object.keys(p)) {
    if (k !== 'executionTimeout' && k !== 'lowPriority' && k !== 'ttl') return fail(`policy.${k}`, 'unknown key');
  }
  if (p.executionTimeout !== undefined) {
    if (!isInt(p.executionTimeout) || p.executionTimeout <= 5000 || p.executionTimeout > WEEK_MS)
      return fail('policy.executionTimeout', `must be an integer of ms greater than 5000 and at most ${WEEK_MS}`);
    v.executionTimeoutMs = p.executionTimeout;
  }
  if (p.lowPriority !== undefined) {
    if (typeof p.lowPriority !== 'boolean') return fail('policy.lowPriority', 'must be a boolean');
    v.lowPriority = p.lowPriority;
  }
  if (p.ttl !== undefined) {
    if (!isInt(p.ttl) || p.ttl < 10_000 || p.ttl > WEEK_MS) return fail('policy.ttl', `must be an integer of ms from 10000 to ${WEEK_MS}`);
    v.ttlMs = p.ttl;
  }
  return { ok: true, value: v };
}

const S3_KEYS = ['accessId', 'accessSecret', 'bucketName', 'endpointUrl'];

function checkS3(s: unknown): Checked<true> {
  if (!isObject(s)) return fail('s3Config', 'must be an object');
  for (const k of Object.keys(s)) {
    if (!S3_KEYS.includes(k)) return fail(`s3Config.${k}`, 'unknown key');
    if (typeof s[k] !== 'string') return fail(`s3Config.${k}`, 'must be a string');
  }
  return { ok: true, value: true };
}

export function isHttpUrl(s: string): boolean {
  if (s.length > 2048) return false;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An optional integer query parameter within bounds; `undefined` when absent. */
export function intParam(raw: string | undefined, name: string, min: number, max: number): Checked<number | undefined> {
  if (raw === undefined || raw === '') return { ok: true, value: undefined };
  if (!/^\d{1,12}$/.test(raw)) return fail(name, `must be an integer from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) return fail(name, `must be an integer from ${min} to ${max}`);
  return { ok: true, value: n };
}
