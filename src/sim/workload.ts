/**
 * The built-in worker: it echoes its input, steered per job by `input.sim` directives
 * and by the endpoint's workload model. Pure: randomness comes in as streams.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { Sampler } from '../sampling/types.js';
import type { RandomStream } from '../lib/random.js';

export interface SimDirectives {
  durationMs?: number;
  fail?: boolean | string;
  output?: unknown;
  outputBytes?: number;
  chunks?: number;
  crash?: boolean;
}

/** Bounds that keep one request from blowing up the simulator's memory or time. */
export const DIRECTIVE_BOUNDS = {
  durationMs: 7 * 24 * 3600 * 1000,
  outputBytes: 64 * 1024 * 1024,
  chunks: 10_000,
} as const;

const KEYS = new Set(['durationMs', 'fail', 'output', 'outputBytes', 'chunks', 'crash']);

export type DirectiveResult = { ok: true; directives: SimDirectives | undefined } | { ok: false; field: string; reason: string };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function intIn(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

const NO_DIRECTIVES: DirectiveResult = { ok: true, directives: undefined };

/** Validates `input.sim`; the field path of the first problem comes back on failure. */
export function parseDirectives(input: unknown): DirectiveResult {
  if (!isObject(input) || !('sim' in input)) return NO_DIRECTIVES;
  const sim = input.sim;
  if (!isObject(sim)) return { ok: false, field: 'input.sim', reason: 'must be an object' };
  for (const k of Object.keys(sim)) {
    if (!KEYS.has(k)) return { ok: false, field: `input.sim.${k}`, reason: 'unknown directive' };
  }
  const d = sim as SimDirectives;
  if (d.durationMs !== undefined && !intIn(d.durationMs, 0, DIRECTIVE_BOUNDS.durationMs))
    return { ok: false, field: 'input.sim.durationMs', reason: `must be an integer from 0 to ${DIRECTIVE_BOUNDS.durationMs}` };
  if (d.fail !== undefined && typeof d.fail !== 'boolean' && typeof d.fail !== 'string')
    return { ok: false, field: 'input.sim.fail', reason: 'must be a boolean or a string' };
  if (d.outputBytes !== undefined && !intIn(d.outputBytes, 0, DIRECTIVE_BOUNDS.outputBytes))
    return { ok: false, field: 'input.sim.outputBytes', reason: `must be an integer from 0 to ${DIRECTIVE_BOUNDS.outputBytes}` };
  if (d.chunks !== undefined && !intIn(d.chunks, 1, DIRECTIVE_BOUNDS.chunks))
    return { ok: false, field: 'input.sim.chunks', reason: `must be an integer from 1 to ${DIRECTIVE_BOUNDS.chunks}` };
  if (d.crash !== undefined && typeof d.crash !== 'boolean') return { ok: false, field: 'input.sim.crash', reason: 'must be a boolean' };
  return { ok: true, directives: d };
}

/** What one run of a job will do, decided when it starts. */
export interface ExecutionPlan {
  durationMs: number;
  failed: boolean;
  error: string | undefined;
  chunks: number;
  /** ms after start at which the worker dies, or undefined. */
  crashAfterMs: number | undefined;
}

export const DEFAULT_FAILURE = 'simulated failure';

/**
 * A synthetic output (`outputBytes` characters): kept as its size and spelt out for each answer
 * (`outputValue`). Kept as a string, the first answer would flatten it to its full size (up to
 * 64 MiB) and the job would hold that for its whole retention: a few such jobs a second, polled
 * once, would fill the server's memory.
 */
export class SyntheticOutput {
  constructor(readonly bytes: number) {}
}

/** A job's output as answers show it. */
export function outputValue(output: unknown): unknown {
  return output instanceof SyntheticOutput ? 'x'.repeat(output.bytes) : output;
}

/** Where `setOutput` notes a synthetic output on a body (a symbol, not enumerable: JSON and readers never see it). */
const SYNTHETIC = Symbol('loadlab.syntheticOutput');

/**
 * Sets `target.output` to a job's output as answers show it. A synthetic output becomes an
 * enumerable getter that spells the string out only when read (in-process callers and
 * `JSON.stringify` see the same string as before), and the body remembers its size
 * (`syntheticOutputOf`), so a transport can write the text as a stream without building it.
 */
export function setOutput(target: { output?: unknown }, output: unknown): void {
  if (!(output instanceof SyntheticOutput)) {
    target.output = output;
    return;
  }
  Object.defineProperty(target, 'output', {
    enumerable: true,
    configurable: true,
    get: () => outputValue(output),
    set(v: unknown) {
      Object.defineProperty(target, 'output', { value: v, enumerable: true, configurable: true, writable: true });
      delete (target as Record<symbol, unknown>)[SYNTHETIC];
    },
  });
  Object.defineProperty(target, SYNTHETIC, { value: output, enumerable: false, configurable: true });
}

/** The synthetic output `setOutput` put on `body`, or undefined. */
export function syntheticOutputOf(body: object): SyntheticOutput | undefined {
  return (body as Record<symbol, SyntheticOutput | undefined>)[SYNTHETIC];
}

export class Workload {
  private readonly last: ExecutionPlan = { durationMs: 0, failed: false, error: undefined, chunks: 1, crashAfterMs: undefined };

  constructor(
    private readonly cfg: EndpointConfig,
    private readonly duration: Sampler,
    private readonly failures: RandomStream,
  ) {}

  /**
   * The plan of a run; the object is reused by the next call (read it at once). `tokensMs`: the
   * run's length from the token model (an `llm:` endpoint), drawn instead of `jobDurationMs`.
   */
  plan(d: SimDirectives | undefined, crashUsed: boolean, tokensMs?: number): Readonly<ExecutionPlan> {
    const p = this.last;
    const durationMs = tokensMs ?? d?.durationMs ?? this.duration();
    const modelFails = this.cfg.workload.failureProbability > 0 && this.failures.next() < this.cfg.workload.failureProbability;
    const fail = d?.fail ?? modelFails;
    p.durationMs = durationMs;
    p.failed = fail !== false;
    p.error = fail === false ? undefined : typeof fail === 'string' ? fail : DEFAULT_FAILURE;
    p.chunks = d?.chunks ?? this.cfg.workload.chunks;
    p.crashAfterMs = d?.crash && !crashUsed ? Math.floor(durationMs / 2) : undefined;
    return p;
  }

  /** Total output bytes when the output is synthetic, else undefined (echo or explicit output). */
  outputBytes(d: SimDirectives | undefined): number | undefined {
    return d?.outputBytes ?? (d?.output === undefined ? this.cfg.workload.outputBytes : undefined);
  }

  /** The final output of a successful run (a `SyntheticOutput` stands for a string of its size). */
  output(input: unknown, d: SimDirectives | undefined): unknown {
    const bytes = this.outputBytes(d);
    if (bytes !== undefined) return new SyntheticOutput(bytes);
    return d?.output !== undefined ? d.output : input;
  }

  /** Partial output `i` (1-based) of `n` chunks (a `SyntheticOutput` stands for a string of its size). */
  chunk(i: number, n: number, d: SimDirectives | undefined): unknown {
    const bytes = this.outputBytes(d);
    if (bytes !== undefined) {
      const from = Math.floor((bytes * (i - 1)) / n);
      const to = Math.floor((bytes * i) / n);
      return new SyntheticOutput(to - from);
    }
    return d?.output !== undefined ? d.output : { chunk: i, of: n };
  }
}
