/**
 * The token model of an `llm:` endpoint: each run draws its token count (capped by the job's
 * `max_tokens`; exactly `max_tokens` with `ignore_eos`), its time to first token and one gap before each further token. Token k (1-based)
 * is produced at start + ttft + the first k - 1 gaps; the last one ends the run.
 */
import { MAX_OUTPUT_TOKENS, type LlmConfig } from '../contract/llm-config.js';
import type { RandomSource } from '../lib/random.js';
import { sampler } from '../sampling/registry.js';
import type { Sampler } from '../sampling/types.js';

/** The tokens of one run. */
export interface TokenRun {
  /** Tokens the run produces. */
  readonly count: number;
  /** The job's `max_tokens` cut the drawn count (OpenAI `finish_reason: "length"`). */
  readonly capped: boolean;
  /**
   * ms after the run's start at which each token is produced, ascending (`count` of them). With an
   * engine: exact (fractional) and written when the run ended; empty before.
   */
  readonly atMs: readonly number[];
}

export class TokenModel {
  private readonly tokenCount: Sampler;
  /** Undefined with an engine (its iterations time the tokens: llm-engine.ts). */
  private readonly ttft: Sampler | undefined;
  private readonly gap: Sampler | undefined;

  /** Draws from the streams `{endpoint}/llm-tokens`, `llm-ttft` and `llm-gaps`: no other stream is touched. */
  constructor(cfg: LlmConfig, endpointId: string, rng: RandomSource) {
    this.tokenCount = sampler(cfg.outputTokens, rng.stream(`${endpointId}/llm-tokens`));
    this.ttft = cfg.ttftMs === undefined ? undefined : sampler(cfg.ttftMs, rng.stream(`${endpointId}/llm-ttft`));
    this.gap = cfg.interTokenMs === undefined ? undefined : sampler(cfg.interTokenMs, rng.stream(`${endpointId}/llm-gaps`));
  }

  /**
   * A run's token count alone (an engine times the tokens): `atMs` stays empty until the run ends
   * (llm-engine.ts fills it). `ignoreEos` (vLLM's `ignore_eos`): the model never stops by itself, so
   * the run is `max_tokens` long (MAX_OUTPUT_TOKENS without one), ended by the length
   * (`finish_reason: "length"`); nothing is drawn.
   */
  count(maxTokens: number | undefined, ignoreEos = false): TokenRun {
    if (ignoreEos) return { count: maxTokens ?? MAX_OUTPUT_TOKENS, capped: true, atMs: [] };
    const drawn = Math.min(MAX_OUTPUT_TOKENS, Math.max(1, this.tokenCount()));
    const capped = maxTokens !== undefined && drawn > maxTokens;
    return { count: capped ? maxTokens : drawn, capped, atMs: [] };
  }

  /** A run's tokens: the count first, then the time to the first token, then each gap. */
  plan(maxTokens: number | undefined, ignoreEos = false): TokenRun {
    const run = this.count(maxTokens, ignoreEos);
    const atMs = run.atMs as number[];
    atMs.length = run.count;
    let t = this.ttft!();
    atMs[0] = t;
    for (let k = 1; k < run.count; k++) atMs[k] = t += this.gap!();
    return run;
  }
}
