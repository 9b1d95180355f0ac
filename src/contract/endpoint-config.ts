/**
 * Simulator configuration: the schema, its defaults (the one place they live) and the frozen,
 * validated form the core trusts. Durations are integer ms or a distribution object.
 */
import { z } from 'zod';
import { deepFreeze } from './deep-freeze.js';
import { durationSchema } from './duration-spec.js';
import { OPERATIONS } from './operations.js';

const ms = z.number().int().nonnegative();

/** Rate (requests per 10 s window) and concurrency (requests in flight) of one operation. */
const opLimitSchema = z.strictObject({
  rate: z.number().int().positive().nullable().optional(),
  concurrency: z.number().int().positive().nullable().optional(),
});

/**
 * `z.enum` whose output is the option's own string from this file, not the parsed one: a string
 * read from YAML or JSON is not interned, so `===` against a literal in a hot path (the scaler's
 * type on every dispatch) compares characters in a runtime call instead of pointers.
 */
function internedEnum<const T extends readonly [string, ...string[]]>(options: T) {
  return z.enum(options).overwrite((v) => options[options.indexOf(v)] as T[number]);
}

const limitsSchema = z.strictObject({
  /** false turns every limit off (benchmarks). */
  enabled: z.boolean().default(true),
  /** Multiplies every rate and concurrency limit (e.g. 10 for benchmarks). */
  scale: z.number().positive().default(1),
  /** sliding: no 10 s interval ever holds more than the limit; fixed: counters reset every 10 s. */
  window: internedEnum(['sliding', 'fixed']).default('sliding'),
  windowMs: ms.positive().default(10_000),
  /** Dynamic floor: effective rate = max(base, running workers × this), per window. Off when unset. */
  perWorkerRate: z.number().int().positive().optional(),
  /** Queue throttling: 429 when the queue holds more than `queueMin` AND more than workersMax × `queuePerWorker`. */
  queueMin: ms.default(50),
  queuePerWorker: ms.default(500),
  /** Payload limits in bytes. */
  runPayloadBytes: ms.default(10 * 1024 * 1024),
  runsyncPayloadBytes: ms.default(20 * 1024 * 1024),
  operations: z.partialRecord(z.enum(OPERATIONS), opLimitSchema).default({}),
});

const faultSchema = z.strictObject({
  /** throttled: no host capacity for the worker; unhealthy: the worker crash-loops on start. */
  kind: internedEnum(['throttled', 'unhealthy']),
  /** How many worker slots the fault takes. */
  workers: z.number().int().positive(),
  fromMs: ms.default(0),
  /** End of the fault window; open-ended when unset. */
  toMs: ms.optional(),
});

const workloadSchema = z.strictObject({
  /** Probability in [0, 1] that a job ends FAILED. */
  failureProbability: z.number().min(0).max(1).default(0),
  /** Streamed partial outputs per job (1 = none). */
  chunks: z.number().int().positive().default(1),
  /** When set, the output is a string of this many bytes instead of the echo. */
  outputBytes: ms.optional(),
});

export const endpointSchema = z.strictObject({
  id: z.string().min(1).max(128).regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "." and "-" only'),
  workersMin: ms.default(0),
  workersMax: ms.default(3),
  /** A worker idle this long stops (down to workersMin). */
  idleTimeoutMs: ms.default(5000),
  /** Time from a worker's start to ready. */
  coldStartMs: durationSchema.default(0),
  /**
   * Faster restart of a worker that stopped less than `windowMs` ago. Off unless set: with the
   * default cold start of 0 there is nothing to speed up.
   */
  flashBoot: z.strictObject({ startMs: durationSchema, windowMs: ms.default(300_000) }).optional(),
  executionTimeoutMs: ms.default(600_000),
  scaler: z
    .strictObject({ type: internedEnum(['QUEUE_DELAY', 'REQUEST_COUNT']), value: z.number().positive() })
    .default({ type: 'QUEUE_DELAY', value: 4 }),
  jobDurationMs: durationSchema.default(1000),
  workload: workloadSchema.default({ failureProbability: 0, chunks: 1 }),
  faults: z.array(faultSchema).default([]),
  limits: limitsSchema.default(() => limitsSchema.parse({})),
  /** Result retention after completion: 30 min for /run, 60 s for /runsync (spec §8.4). */
  retention: z
    .strictObject({ runMs: ms.default(1_800_000), runsyncMs: ms.default(60_000) })
    .default({ runMs: 1_800_000, runsyncMs: 60_000 }),
  /** Webhook delivery: attempts in all (1 + retries) and the gap between them. */
  webhook: z
    .strictObject({ attempts: z.number().int().positive().default(3), intervalMs: ms.default(10_000) })
    .default({ attempts: 3, intervalMs: 10_000 }),
});

export const simConfigSchema = z.strictObject({
  seed: z.union([z.number().int(), z.string()]).default(1),
  apiKeys: z.array(z.string().min(1)).default([]),
  endpoints: z.array(endpointSchema).min(1).default(() => [endpointSchema.parse({ id: 'ep' })]),
});

export type EndpointConfig = z.infer<typeof endpointSchema>;
export type EndpointConfigInput = z.input<typeof endpointSchema>;
export type SimConfig = z.infer<typeof simConfigSchema>;
export type SimConfigInput = z.input<typeof simConfigSchema>;
export type FaultConfig = z.infer<typeof faultSchema>;

export interface ConfigIssue {
  /** Dotted field path, e.g. `endpoints.0.scaler.value`. */
  path: string;
  message: string;
}

/** Validates a whole config in one pass; every issue comes back with its field path. */
export function parseSimConfig(input: unknown): { ok: true; config: SimConfig } | { ok: false; issues: ConfigIssue[] } {
  const r = simConfigSchema.safeParse(input ?? {});
  if (!r.success) {
    return { ok: false, issues: r.error.issues.map((i) => ({ path: issuePath(i), message: i.message })) };
  }
  const ids = new Set<string>();
  const issues: ConfigIssue[] = [];
  r.data.endpoints.forEach((e, n) => {
    if (ids.has(e.id)) issues.push({ path: `endpoints.${n}.id`, message: `duplicate endpoint id "${e.id}"` });
    if (e.workersMin > e.workersMax) issues.push({ path: `endpoints.${n}.workersMin`, message: 'must be <= workersMax' });
    ids.add(e.id);
  });
  return issues.length ? { ok: false, issues } : { ok: true, config: deepFreeze(r.data) };
}

function issuePath(i: z.core.$ZodIssue): string {
  const base = i.path.map(String);
  // zod reports an unknown key on the parent object; name the key itself.
  if (i.code === 'unrecognized_keys') return [...base, i.keys.join(',')].join('.');
  return base.join('.');
}

/** A full endpoint config from a partial one (tests, demos). Throws on invalid input: code, not users. */
export function endpointConfig(input: EndpointConfigInput): EndpointConfig {
  return endpointSchema.parse(input);
}
