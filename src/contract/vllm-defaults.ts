/**
 * The batch limits of an `llm.engine` that does not give them (maxNumSeqs, maxNumBatchedTokens),
 * in one place. vLLM picks its scheduler's defaults by GPU when it starts: 1024 sequences and 8192
 * batched tokens on H100, H200 and B200-class GPUs, 256 and 2048 on the rest (A100, L4, L40S, A6000,
 * 4090, …). A scenario that names its GPU (plan.gpu, or --gpu) gets that GPU's; one that names
 * none keeps loadlab's own defaults, 256 and 8192. The class goes by the name: one containing
 * H100, H200 or B200 (any case: H100-PRO, GH200, B200) is the large class, any other name, known
 * or not, the default class.
 */

/** The two limits of a batch. */
export interface EngineLimits {
  maxNumSeqs: number;
  maxNumBatchedTokens: number;
}

export const ENGINE_LIMIT_KEYS = ['maxNumSeqs', 'maxNumBatchedTokens'] as const satisfies readonly (keyof EngineLimits)[];

/** The limits of an engine in a scenario that names no GPU (the engine schema's defaults). */
export const LOADLAB_ENGINE_DEFAULTS: Readonly<EngineLimits> = Object.freeze({ maxNumSeqs: 256, maxNumBatchedTokens: 8192 });

/** vLLM's defaults on H100, H200 and B200-class GPUs. */
export const VLLM_LARGE_GPU_DEFAULTS: Readonly<EngineLimits> = Object.freeze({ maxNumSeqs: 1024, maxNumBatchedTokens: 8192 });

/** vLLM's defaults on every other GPU. */
export const VLLM_OTHER_GPU_DEFAULTS: Readonly<EngineLimits> = Object.freeze({ maxNumSeqs: 256, maxNumBatchedTokens: 2048 });

const LARGE_CLASS = /H100|H200|B200/i;

/** Is this GPU (by name) of the class vLLM gives its larger defaults? */
export const isLargeGpu = (gpu: string): boolean => LARGE_CLASS.test(gpu);

/** vLLM's defaults on this GPU. */
export function vllmDefaultsOn(gpu: string): Readonly<EngineLimits> {
  return isLargeGpu(gpu) ? VLLM_LARGE_GPU_DEFAULTS : VLLM_OTHER_GPU_DEFAULTS;
}

/** The limits an engine without them gets: vLLM's on the GPU named, else loadlab's. */
export function engineDefaultsFor(gpu: string | undefined): Readonly<EngineLimits> {
  return gpu === undefined ? LOADLAB_ENGINE_DEFAULTS : vllmDefaultsOn(gpu);
}

/**
 * The limits in force and where they came from, in words: "maxNumSeqs 1024, maxNumBatchedTokens
 * 8192: vLLM's defaults on H100-PRO". A limit that differs from the default for `gpu` was set in
 * the scenario; one equal to it is told as the default (which it is, given or not).
 */
export function engineLimitsText(e: EngineLimits, gpu: string | undefined): string {
  const d = engineDefaultsFor(gpu);
  const source = (k: keyof EngineLimits) => e[k] !== d[k];
  const defaults = (one: boolean) =>
    gpu === undefined
      ? `loadlab's default${one ? '' : 's'} (no GPU named: plan.gpu or --gpu gives vLLM's on that GPU)`
      : `vLLM's default${one ? '' : 's'} on ${gpu}`;
  const [seqs, tokens] = ENGINE_LIMIT_KEYS.map(source);
  const both = `maxNumSeqs ${e.maxNumSeqs}, maxNumBatchedTokens ${e.maxNumBatchedTokens}`;
  if (seqs === tokens) return `${both}: ${seqs ? 'set in the scenario' : defaults(false)}`;
  const of = (k: keyof EngineLimits, given: boolean) => `${k} ${e[k]} (${given ? 'set in the scenario' : defaults(true)})`;
  return `${of('maxNumSeqs', seqs!)}, ${of('maxNumBatchedTokens', tokens!)}`;
}
