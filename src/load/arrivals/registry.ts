/**
 * Arrival processes by name (`process` key). A new one is one file and one line here; the
 * scenario schema and the JSON Schema pick it up from this list.
 */
import { z } from 'zod';
import { constant } from './constant.js';
import { diurnal } from './diurnal.js';
import { poisson } from './poisson.js';
import { ramp } from './ramp.js';
import { replay } from './replay.js';
import { spike } from './spike.js';
import { stages } from './stages.js';
import type { ArrivalContext, ArrivalGenerator, ArrivalKind } from './types.js';

export const arrivals = { constant, poisson, ramp, stages, spike, diurnal, replay } as const;
export type ArrivalName = keyof typeof arrivals;

export const arrivalSchema = z.discriminatedUnion('process', [
  constant.schema,
  poisson.schema,
  ramp.schema,
  stages.schema,
  spike.schema,
  diurnal.schema,
  replay.schema,
]);
export type ArrivalSpec = z.infer<typeof arrivalSchema>;

function kindOf(spec: ArrivalSpec): ArrivalKind {
  return arrivals[spec.process] as unknown as ArrivalKind;
}

export function arrivalGenerator(spec: ArrivalSpec, ctx: ArrivalContext): ArrivalGenerator {
  return kindOf(spec).create(spec, ctx);
}

export function expectedArrivals(spec: ArrivalSpec, durationMs: number): number {
  return kindOf(spec).expected(spec, durationMs);
}

export function peakArrivalsPerSec(spec: ArrivalSpec, durationMs: number): number {
  return kindOf(spec).peakPerSec(spec, durationMs);
}
