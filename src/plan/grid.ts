/**
 * `--grid KEY=V1,V2,…` (repeatable): endpoint knobs a plan sweeps besides workersMax. Each
 * combination of the axes' values is a line of points along workersMax. Knobs: workersMin,
 * idleTimeoutMs, coldStartMs (ms), scaler.type (QUEUE_DELAY | REQUEST_COUNT), scaler.value,
 * flashBoot (off, or a restart time in ms), workerConcurrency (jobs one worker runs at once, a
 * whole number 1..1024: with workersMax it is the workers × concurrency sweep of an LLM endpoint),
 * gpus (lists of GPU types in priority order: grid-gpus.ts), type (queue | load-balancer: the same
 * traffic on either kind of endpoint, grid-type.ts).
 * Every combination's endpoint is checked by the endpoint schema before anything runs.
 */
import { endpointSchema } from '../contract/endpoint-config.js';
import type { EngineLimitsGiven } from '../load/scenario/engine-defaults.js';
import type { Scenario } from '../load/scenario/schema.js';
import { didYouMean } from '../lib/edit-distance.js';
import { gpuListText, knownGpus, parseGpuList, unknownGpu, withGpuList } from './grid-gpus.js';
import { parseEndpointType, withEndpointType } from './grid-type.js';
import type { EndpointType } from '../contract/endpoint-presets.js';

/** A knob's value: a number, a word, or (gpus) a list of GPU types. */
export type KnobValue = number | string | string[];
/** One combination: knob → value (in the order the axes were given). */
export type Knobs = Record<string, KnobValue>;

export const KNOBS = ['type', 'workersMin', 'idleTimeoutMs', 'coldStartMs', 'scaler.type', 'scaler.value', 'flashBoot', 'workerConcurrency', 'gpus'] as const;
type Knob = (typeof KNOBS)[number];
const NUMERIC: readonly Knob[] = ['workersMin', 'idleTimeoutMs', 'coldStartMs', 'scaler.value', 'workerConcurrency'];

/** endpoint.workerConcurrency's own type (whole, 1..1024), without its default: one source for the bounds. */
const WORKER_CONCURRENCY = endpointSchema.shape.workerConcurrency.unwrap();

export interface GridAxis {
  knob: Knob;
  values: KnobValue[];
}

/** The axes, or every problem (each names `--grid` and the knob). */
export function parseGrid(flags: readonly string[]): GridAxis[] | string[] {
  const problems: string[] = [];
  const axes: GridAxis[] = [];
  for (const f of flags) {
    const eq = f.indexOf('=');
    const key = (eq < 0 ? f : f.slice(0, eq)).trim();
    if (!(KNOBS as readonly string[]).includes(key)) {
      problems.push(
        `--grid "${f}": "${key}" is not an endpoint knob a plan can sweep${didYouMean(key, KNOBS)}; knobs: ${KNOBS.join(', ')} (workersMax is swept by --workers-max)`,
      );
      continue;
    }
    const knob = key as Knob;
    if (axes.some((a) => a.knob === knob)) {
      problems.push(`--grid "${f}": ${knob} given twice`);
      continue;
    }
    const raw =
      eq < 0
        ? []
        : f
            .slice(eq + 1)
            .split(',')
            .map((v) => v.trim())
            .filter((v) => v !== '');
    if (!raw.length) {
      problems.push(`--grid "${f}": give ${knob}=V1,V2,… (at least one value)`);
      continue;
    }
    const values: KnobValue[] = [];
    for (const v of raw) {
      if (knob === 'gpus') {
        const list = parseGpuList(v);
        if (typeof list === 'string') problems.push(`--grid "${f}": gpus value ${list}`);
        else values.push(list);
      } else if (knob === 'type') {
        const t = parseEndpointType(v);
        if (t !== v) problems.push(`--grid "${f}": type value ${t}`);
        else values.push(t);
      } else if (NUMERIC.includes(knob) || (knob === 'flashBoot' && v !== 'off')) {
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0) problems.push(`--grid "${f}": ${knob} value "${v}" is not a number >= 0${knob === 'flashBoot' ? ' or off' : ''}`);
        else if (knob === 'workerConcurrency' && !WORKER_CONCURRENCY.safeParse(n).success)
          problems.push(
            `--grid "${f}": workerConcurrency value "${v}" is not a whole number from ${WORKER_CONCURRENCY.minValue} to ${WORKER_CONCURRENCY.maxValue} (jobs one worker runs at once)`,
          );
        else values.push(n);
      } else values.push(v);
    }
    axes.push({ knob, values });
  }
  return problems.length ? problems : axes;
}

/** The axes of a scenario's `plan.grid` (validated by the scenario schema), in the order of KNOBS. */
export function gridOfScenario(grid: NonNullable<Scenario['plan']>['grid']): GridAxis[] {
  if (!grid) return [];
  return KNOBS.flatMap((knob) => {
    const values = grid[knob] as readonly KnobValue[] | undefined;
    return values ? [{ knob, values: values.map((v) => (Array.isArray(v) ? [...v] : v)) }] : [];
  });
}

/** Every combination, the first axis varying slowest; one empty combination for no axes. */
export function combinations(axes: readonly GridAxis[]): Knobs[] {
  let out: Knobs[] = [{}];
  for (const a of axes) out = out.flatMap((k) => a.values.map((v) => ({ ...k, [a.knob]: v })));
  return out;
}

/**
 * The endpoint (schema input) with the knobs set; workersMin is left to the caller (capped at
 * workersMax). `given`: what the scenario's engine gave of its batch limits, so that a point
 * listing other GPU types takes vLLM's defaults on them (grid-gpus.ts). `type` is set last, so a
 * load-balancing point's default scaler is at the point's workerConcurrency (grid-type.ts).
 */
export function withKnobs(ep: Scenario['endpoint'], k: Knobs, given?: EngineLimitsGiven): Record<string, unknown> {
  let e: Record<string, unknown> = { ...ep };
  for (const [knob, v] of Object.entries(k)) {
    if (knob === 'type') continue;
    if (knob === 'gpus') e = withGpuList(e, v as string[], given);
    else if (knob === 'scaler.type') e.scaler = { ...(e.scaler as object), type: v };
    else if (knob === 'scaler.value') e.scaler = { ...(e.scaler as object), value: v };
    else if (knob === 'flashBoot') {
      if (v === 'off') delete e.flashBoot;
      else e.flashBoot = { ...(ep.flashBoot ?? {}), startMs: v };
    } else e[knob] = v;
  }
  return k.type === undefined ? e : withEndpointType(e, k.type as EndpointType, k);
}

/** Problems of the combinations' endpoints (a bad knob value), each naming `where` (`--grid`, or the scenario's plan.grid) and the field. */
export function checkCombinations(ep: Scenario['endpoint'], combos: readonly Knobs[], where = '--grid'): string[] {
  const seen = new Set<string>();
  for (const k of combos) {
    const unknown = Array.isArray(k.gpus) ? unknownGpu(k.gpus) : undefined;
    if (unknown !== undefined) seen.add(`${where}: gpus: unknown GPU type "${unknown}" (in ${describeKnobs(k)}); known: ${knownGpus()}`);
    const e = withKnobs(ep, k);
    // workersMin is capped at each point's workersMax: check it against the largest.
    const r = endpointSchema.safeParse({ ...e, workersMax: Math.max(ep.workersMax, Number(e.workersMin ?? 0)) });
    if (!r.success) for (const i of r.error.issues) seen.add(`${where}: ${i.path.join('.') || 'endpoint'}: ${i.message} (in ${describeKnobs(k)})`);
  }
  return [...seen];
}

export const describeKnobs = (k: Knobs) =>
  Object.entries(k)
    .map(([n, v]) => `${n}=${Array.isArray(v) ? gpuListText(v) : v}`)
    .join(', ');

/** A point's identity in a plan (workersMax and its grid combination): rows, the front and the recommendation compare by it. */
export const pointKey = (workersMax: number, k: Knobs | null | undefined) => `${workersMax}|${describeKnobs(k ?? {})}`;
