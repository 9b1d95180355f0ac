/**
 * Arrival processes by name (`process` key). A new open process is one file and one line here; the
 * scenario schema and the JSON Schema pick it up from this list. `closed` is in the schema too,
 * but not in `arrivals`: its sessions follow the answers (closed.ts), so it has no generator.
 */
import { z } from 'zod';
import { closedPeakIn, closedSchema, closedSessions, type ClosedSpec } from './closed.js';
import { constant } from './constant.js';
import { diurnal } from './diurnal.js';
import { poisson } from './poisson.js';
import { ramp } from './ramp.js';
import { replay } from './replay.js';
import { spike } from './spike.js';
import { stages } from './stages.js';
import type { ArrivalContext, ArrivalGenerator, ArrivalKind } from './types.js';

/** The open processes: times fixed in advance, whatever the answers do. */
export const arrivals = { constant, poisson, ramp, stages, spike, diurnal, replay } as const;
/** The open processes' names (`closed` is the other value of `process`). */
export type ArrivalName = keyof typeof arrivals;

export const arrivalSchema = z.discriminatedUnion('process', [
  constant.schema,
  poisson.schema,
  ramp.schema,
  stages.schema,
  spike.schema,
  diurnal.schema,
  replay.schema,
  closedSchema,
]);
export type ArrivalSpec = z.infer<typeof arrivalSchema>;
export type OpenArrivalSpec = Exclude<ArrivalSpec, ClosedSpec>;

export function isClosed(spec: ArrivalSpec): spec is ClosedSpec {
  return spec.process === 'closed';
}

function kindOf(spec: OpenArrivalSpec): ArrivalKind {
  return arrivals[spec.process] as unknown as ArrivalKind;
}

export function arrivalGenerator(spec: OpenArrivalSpec, ctx: ArrivalContext): ArrivalGenerator {
  return kindOf(spec).create(spec, ctx);
}

/**
 * Expected sessions in [0, durationMs). `sessionMs`: the least a session of the flow takes on
 * average (its job time when it submits one, else 0); only a closed flow reads it, and gives the
 * most its users can start (closed.ts closedSessions): an upper bound, since its rate is set by
 * the answers.
 */
export function expectedArrivals(spec: ArrivalSpec, durationMs: number, sessionMs: number): number {
  return isClosed(spec) ? closedSessions(spec, durationMs, sessionMs) : kindOf(spec).expected(spec, durationMs);
}

/** Highest rate in sessions per second; for a closed flow, the most its users start in one second (`sessionMs` as in expectedArrivals). */
export function peakArrivalsPerSec(spec: ArrivalSpec, durationMs: number, sessionMs: number): number {
  return isClosed(spec) ? closedPeakIn(spec, sessionMs, 1000) : kindOf(spec).peakPerSec(spec, durationMs);
}
