/**
 * An endpoint's batching engines as vLLM's gauges read them at an instant: requests running and
 * waiting (engine-stats.ts), and KV cache usage (vLLM `kv_cache_usage`, 0–1): the blocks held over
 * the blocks of the workers up (running or idle: a starting, throttled or unhealthy worker has no
 * engine serving). Undefined without an `llm.engine` or, for the usage, without `kvCacheTokens`
 * (an unlimited cache has no usage to show).
 */
import { KV_BLOCK_TOKENS } from '../contract/llm-config.js';
import type { Endpoint } from './endpoint.js';

/** Blocks in one worker's KV cache; undefined: the cache is not modelled (no `kvCacheTokens`). */
export function blocksPerWorker(ep: Endpoint): number | undefined {
  const tokens = ep.cfg.llm?.engine?.kvCacheTokens;
  return tokens === undefined ? undefined : Math.floor(tokens / KV_BLOCK_TOKENS);
}

/** The endpoint's KV cache usage now (0 with no worker up); undefined where blocksPerWorker is. */
export function kvCacheUsage(ep: Endpoint, blocks = blocksPerWorker(ep)): number | undefined {
  if (blocks === undefined) return undefined;
  const c = ep.pool.counts;
  const up = c.running + c.idle;
  return up > 0 ? ep.engines.usedBlocks / (blocks * up) : 0;
}
