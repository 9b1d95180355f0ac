/**
 * A scenario's batch limits by its GPU, filled in before the schema reads it: an `llm.engine`
 * that does not give maxNumSeqs / maxNumBatchedTokens gets vLLM's defaults on the GPU named
 * (contract/vllm-defaults.ts); keys it gives stay. With no GPU named the input is unchanged and
 * the schema's own defaults apply.
 */
import { ENGINE_LIMIT_KEYS, vllmDefaultsOn } from '../../contract/vllm-defaults.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The GPU a scenario names: `gpu` when given (the --gpu flag), else its plan.gpu (a non-empty string). */
export function gpuOf(raw: unknown, gpu?: string): string | undefined {
  if (gpu !== undefined) return gpu;
  const g = isObj(raw) && isObj(raw.plan) ? raw.plan.gpu : undefined;
  return typeof g === 'string' && g !== '' ? g : undefined;
}

/**
 * The raw scenario with vLLM's defaults on its GPU (`gpu`, else plan.gpu) in its engine where the
 * keys are absent: a copy along the path (the input is not changed), or the input itself when
 * there is no GPU or no engine object.
 */
export function withGpuEngineDefaults(raw: unknown, gpu?: string): unknown {
  const name = gpuOf(raw, gpu);
  if (name === undefined || !isObj(raw)) return raw;
  const endpoint = raw.endpoint;
  const llm = isObj(endpoint) ? endpoint.llm : undefined;
  const engine = isObj(llm) ? llm.engine : undefined;
  if (!isObj(endpoint) || !isObj(llm) || !isObj(engine)) return raw;
  const d = vllmDefaultsOn(name);
  const filled: Obj = { ...engine };
  for (const k of ENGINE_LIMIT_KEYS) if (filled[k] === undefined) filled[k] = d[k];
  return { ...raw, endpoint: { ...endpoint, llm: { ...llm, engine: filled } } };
}
