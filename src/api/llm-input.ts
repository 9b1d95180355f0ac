/**
 * A `/run` or `/runsync` job on an `llm:` endpoint: its token cap is `input.max_tokens` (an
 * integer from 1 to 4096, if given), its length exactly that with `input.ignore_eos: true` (vLLM's
 * sampling parameter: the model does not stop by itself), and the token model sets its length and stream, so the
 * `input.sim.durationMs` and `input.sim.chunks` directives are refused.
 */
import type { Submission } from '../sim/endpoint.js';
import { MAX_OUTPUT_TOKENS } from '../contract/llm-config.js';
import { promptTokensOf } from '../contract/prompt-tokens.js';
import { promptBlocksOf } from '../contract/prompt-blocks.js';
import type { EngineConfig } from '../contract/llm-config.js';

/**
 * Sets `s.maxTokens`, and `s.promptTokens` when `engine` (only a batching worker prefills them, as
 * routes/openai.ts), with its `prefixCaching` `s.promptBlocks` too; gives the field and reason of
 * the first problem, else undefined.
 */
export function checkLlmInput(s: Submission, engine: EngineConfig | undefined): { field: string; reason: string } | undefined {
  const d = s.directives;
  if (engine) s.promptTokens = promptTokensOf(s.input);
  if (engine?.prefixCaching) s.promptBlocks = promptBlocksOf(s.input);
  if (d?.durationMs !== undefined)
    return { field: 'input.sim.durationMs', reason: "not accepted on an endpoint with llm: (the token model sets the job's length)" };
  if (d?.chunks !== undefined) return { field: 'input.sim.chunks', reason: 'not accepted on an endpoint with llm: (each token is a stream item)' };
  const ie = (s.input as Record<string, unknown>).ignore_eos;
  if (ie !== undefined && typeof ie !== 'boolean') return { field: 'input.ignore_eos', reason: 'must be a boolean' };
  s.ignoreEos = ie === true;
  const m = (s.input as Record<string, unknown>).max_tokens;
  if (m === undefined) return undefined;
  if (typeof m !== 'number' || !Number.isInteger(m) || m < 1 || m > MAX_OUTPUT_TOKENS)
    return { field: 'input.max_tokens', reason: `must be an integer from 1 to ${MAX_OUTPUT_TOKENS}` };
  s.maxTokens = m;
  return undefined;
}
