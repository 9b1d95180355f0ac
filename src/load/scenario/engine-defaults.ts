/**
 * A scenario's batch limits by its GPU, filled in before the schema reads it: an `llm.engine`
 * that does not give maxNumSeqs / maxNumBatchedTokens gets vLLM's defaults on the GPU named
 * (contract/vllm-defaults.ts); keys it gives stay. With no GPU named the input is unchanged and
 * the schema's own defaults apply.
 *
 * An endpoint that lists its GPU types (`gpus`): the engine takes the first type's defaults, and
 * each other type of the other class (vLLM's larger or smaller defaults) gets its own in
 * `llm.engine.byGpu`, for the keys neither the engine nor that type's entry gives. A plan's grid
 * point with another list fills them again from what the scenario gave (`engineForGpus`).
 */
import { ENGINE_LIMIT_KEYS, isLargeGpu, vllmDefaultsOn, type EngineLimits } from '../../contract/vllm-defaults.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The GPU a scenario names: `gpu` when given (the --gpu flag), else its plan.gpu (a non-empty string). */
export function gpuOf(raw: unknown, gpu?: string): string | undefined {
  if (gpu !== undefined) return gpu;
  const g = isObj(raw) && isObj(raw.plan) ? raw.plan.gpu : undefined;
  return typeof g === 'string' && g !== '' ? g : undefined;
}

/** The GPU types whose defaults the engine takes: endpoint.gpus when it lists strings, else the one GPU named (gpuOf), else none. */
function gpusOf(raw: Obj, gpu?: string): string[] {
  const listed = isObj(raw.endpoint) ? raw.endpoint.gpus : undefined;
  if (Array.isArray(listed) && listed.length > 0 && listed.every((g) => typeof g === 'string')) return listed as string[];
  const one = gpuOf(raw, gpu);
  return one === undefined ? [] : [one];
}

/**
 * The engine (schema input) with vLLM's defaults on `gpus` where its keys are absent: a copy.
 * The engine's own keys take the first type's; each other type whose class differs from the
 * first gets, in its byGpu entry, the keys neither the engine nor the entry gives.
 */
export function fillEngineLimits(engine: Obj, gpus: readonly string[]): Obj {
  const first = gpus[0];
  if (first === undefined) return engine;
  const filled: Obj = { ...engine };
  const d0 = vllmDefaultsOn(first);
  for (const k of ENGINE_LIMIT_KEYS) if (filled[k] === undefined) filled[k] = d0[k];
  const byGpu: Obj | undefined = engine.byGpu === undefined ? {} : isObj(engine.byGpu) ? { ...engine.byGpu } : undefined;
  if (byGpu === undefined) return filled; // not an object: the schema says so
  for (const g of gpus.slice(1)) {
    if (isLargeGpu(g) === isLargeGpu(first)) continue;
    const own = byGpu[g] ?? {};
    if (!isObj(own)) continue;
    const entry: Obj = { ...own };
    const d = vllmDefaultsOn(g);
    for (const k of ENGINE_LIMIT_KEYS) if (engine[k] === undefined && entry[k] === undefined) entry[k] = d[k];
    byGpu[g] = entry;
  }
  if (Object.keys(byGpu).length > 0) filled.byGpu = byGpu;
  return filled;
}

/**
 * The raw scenario with vLLM's defaults on its GPU types (endpoint.gpus, else `gpu`, else
 * plan.gpu) in its engine where the keys are absent: a copy along the path (the input is not
 * changed), or the input itself when there is no GPU or no engine object.
 */
export function withGpuEngineDefaults(raw: unknown, gpu?: string): unknown {
  if (!isObj(raw)) return raw;
  const gpus = gpusOf(raw, gpu);
  const endpoint = raw.endpoint;
  const llm = isObj(endpoint) ? endpoint.llm : undefined;
  const engine = isObj(llm) ? llm.engine : undefined;
  if (gpus.length === 0 || !isObj(endpoint) || !isObj(llm) || !isObj(engine)) return raw;
  return { ...raw, endpoint: { ...endpoint, llm: { ...llm, engine: fillEngineLimits(engine, gpus) } } };
}

/** The batch limits a scenario's engine gives itself, its own and in each byGpu entry (before any default is filled in). */
export interface EngineLimitsGiven {
  own: Partial<EngineLimits>;
  byGpu: Record<string, Partial<EngineLimits>>;
}

const limitsIn = (o: unknown): Partial<EngineLimits> =>
  isObj(o) ? Object.fromEntries(ENGINE_LIMIT_KEYS.filter((k) => typeof o[k] === 'number').map((k) => [k, o[k] as number])) : {};

/** What the raw scenario's engine gives of its limits; undefined: no engine. */
export function engineLimitsGiven(raw: unknown): EngineLimitsGiven | undefined {
  const endpoint = isObj(raw) ? raw.endpoint : undefined;
  const llm = isObj(endpoint) ? endpoint.llm : undefined;
  const engine = isObj(llm) ? llm.engine : undefined;
  if (!isObj(engine)) return undefined;
  const byGpu = isObj(engine.byGpu) ? Object.fromEntries(Object.entries(engine.byGpu).map(([g, e]) => [g, limitsIn(e)])) : {};
  return { own: limitsIn(engine), byGpu };
}

/**
 * A loaded engine on another list of GPU types (a plan's grid point): the limits the loader filled
 * in are taken out again (`given`: what the scenario gave), byGpu keeps the entries of types in
 * `gpus`, and vLLM's defaults on `gpus` fill the rest (fillEngineLimits). A copy.
 */
export function engineForGpus(engine: Obj, gpus: readonly string[], given: EngineLimitsGiven): Obj {
  const e: Obj = { ...engine };
  for (const k of ENGINE_LIMIT_KEYS) if (given.own[k] === undefined) delete e[k];
  const byGpu: Obj = {};
  for (const [g, entry] of Object.entries(isObj(engine.byGpu) ? engine.byGpu : {})) {
    if (!gpus.includes(g) || !isObj(entry)) continue;
    const kept: Obj = { ...entry };
    for (const k of ENGINE_LIMIT_KEYS) if (given.byGpu[g]?.[k] === undefined) delete kept[k];
    if (Object.keys(kept).length > 0) byGpu[g] = kept;
  }
  delete e.byGpu;
  if (Object.keys(byGpu).length > 0) e.byGpu = byGpu;
  return fillEngineLimits(e, gpus);
}
