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
  baseMs: ms.default(1000).meta({ description: 'Delay in ms before the first retry after a 429. Default: 1000.', examples: [1000, 250] }),
  factor: z
    .number()
    .min(1)
    .default(2)
    .meta({ description: 'Each further delay is the previous one times this (>= 1). Default: 2.', examples: [2, 1.5] }),
  maxMs: ms.default(30_000).meta({ description: 'Longest delay in ms. Default: 30000.', examples: [30_000, 5000] }),
  jitter: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .meta({ description: 'Fraction in [0, 1] of each delay taken off at random (0 = none). Default: 0.5.', examples: [0.5, 0] }),
};

export const on429Schema = z
  .strictObject({
    maxAttempts: z
      .number()
      .int()
      .positive()
      .default(3)
      .meta({ description: 'Attempts of a request answered 429, in all (1 = no retry). Default: 3.', examples: [3, 1, 10] }),
    ...backoffFields,
  })
  .default({ maxAttempts: 3, baseMs: 1000, factor: 2, maxMs: 30_000, jitter: 0.5 })
  .meta({
    description:
      'Retries of a request answered 429 (too many requests), with exponential back-off: baseMs × factor^(attempt−1), at most maxMs, minus up to jitter of it. Default: {maxAttempts: 3, baseMs: 1000, factor: 2, maxMs: 30000, jitter: 0.5}.',
    examples: [{ maxAttempts: 1 }, { maxAttempts: 5, baseMs: 500 }],
  });

export const payloadSchema = z
  .strictObject({
    input: z
      .record(z.string(), z.unknown())
      .default({ prompt: 'hello' })
      .meta({
        description: 'The job input; strings (keys and values) may hold {{seq}} (the session number) and {{flow}} (the flow name). Default: {prompt: hello}.',
        examples: [{ prompt: 'a cat in a hat #{{seq}}' }, { prompt: 'hello', steps: 30 }],
      }),
    padBytes: ms
      .max(64 * 1024 * 1024)
      .default(0)
      .meta({ description: 'Adds input.pad, a string of this many bytes, to set the payload size (at most 64 MiB). Default: 0.', examples: [0, 1_048_576] }),
    sim: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description: 'input.sim: directives for the simulated worker: durationMs, fail, output, outputBytes, chunks, crash. Real workers ignore it.',
        examples: [{ durationMs: 5000 }, { fail: 'out of memory' }, { chunks: 10 }],
      }),
    policy: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description: 'The job policy (executionTimeout, ttl, lowPriority), sent as it is.',
        examples: [{ executionTimeout: 60_000 }, { ttl: 3_600_000, lowPriority: true }],
      }),
  })
  .default({ input: { prompt: 'hello' }, padBytes: 0 })
  .meta({
    description: 'The request body of each job: its input, size padding, simulator directives and policy. Default: {input: {prompt: hello}}.',
    examples: [{ input: { prompt: 'hello #{{seq}}' }, padBytes: 4096 }],
  });

export const commonFields = {
  on429: on429Schema,
  // The default sits above the longest server hold (300 s), so a held request is not cut short.
  timeoutMs: ms
    .positive()
    .default(330_000)
    .meta({
      description: 'Client-side timeout of each request in ms; a request without an answer by then ends timeout. Default: 330000.',
      examples: [330_000, 30_000],
    }),
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
