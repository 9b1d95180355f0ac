/**
 * Options every behaviour shares — 429 back-off, client timeout, payload template — with their
 * defaults (the one place they live), and the request-body builder.
 */
import { z } from 'zod';
import type { CallOptions, ClientResponse } from '../client.js';
import { compileTemplate, type Template } from './template.js';
import type { BehaviourEnv } from './types.js';

const ms = z.number().int().nonnegative();

export const backoffFields = {
  baseMs: ms.default(1000),
  factor: z.number().min(1).default(2),
  maxMs: ms.default(30_000),
  /** Fraction of each delay taken off at random, in [0, 1]. */
  jitter: z.number().min(0).max(1).default(0.5),
};

export const on429Schema = z
  .strictObject({ maxAttempts: z.number().int().positive().default(3), ...backoffFields })
  .default({ maxAttempts: 3, baseMs: 1000, factor: 2, maxMs: 30_000, jitter: 0.5 });

export const payloadSchema = z
  .strictObject({
    /** The job `input`; strings may hold `{{seq}}` (session number) and `{{flow}}`. */
    input: z.record(z.string(), z.unknown()).default({ prompt: 'hello' }),
    /** Adds `input.pad`, a string of this many bytes (payload size). */
    padBytes: ms.max(64 * 1024 * 1024).default(0),
    /** `input.sim` directives for the simulated worker (CONTRACT §3); ignored by real workers. */
    sim: z.record(z.string(), z.unknown()).optional(),
    /** The job `policy` (spec §2), sent as it is. */
    policy: z.record(z.string(), z.unknown()).optional(),
  })
  .default({ input: { prompt: 'hello' }, padBytes: 0 });

export const commonFields = {
  on429: on429Schema,
  /** Client-side timeout of each request in ms (above the longest server hold of 300 s by default). */
  timeoutMs: ms.positive().default(330_000),
  payload: payloadSchema,
};

export type Payload = z.infer<typeof payloadSchema>;

/**
 * Builds request bodies from the template (compiled once, see template.ts); the size in bytes is
 * measured once per flow. `body.constant`: every session sends the same body object.
 */
export function bodyBuilder(p: Payload, flow: string, extra: Record<string, unknown> = {}): { body: Template<Record<string, unknown>>; bytes: number } {
  const input: Record<string, unknown> = { ...p.input };
  if (p.sim) input.sim = p.sim;
  if (p.padBytes) input.pad = 'x'.repeat(p.padBytes);
  const base: Record<string, unknown> = { input, ...extra };
  if (p.policy) base.policy = p.policy;
  // The size of the template itself: the same for every session (payload limits, reports).
  const bytes = Buffer.byteLength(JSON.stringify(base));
  return { body: compileTemplate(base, flow.replaceAll('"', '')), bytes };
}

export function callOptions(spec: { on429: CallOptions['on429'] }, env: BehaviourEnv): CallOptions {
  return { on429: spec.on429, rng: env.rng };
}

/** The session outcome for an answer that ends it without a job (429s exhausted, 4xx, timeout). */
export function failureOutcome(r: ClientResponse): string {
  if (r.dropped) return 'dropped';
  if (r.timedOut) return 'timeout';
  if (r.status === 429) return 'rejected';
  if (r.status === 0) return 'error';
  return r.status >= 500 ? 'error' : 'rejected';
}
