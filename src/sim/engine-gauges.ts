/**
 * An endpoint's batching engines as vLLM's gauges read them at an instant: requests running and
 * waiting (engine-stats.ts), and KV cache usage (vLLM `kv_cache_usage`, 0–1): the blocks held over
 * the blocks of the workers up (running or idle: a starting, throttled or unhealthy worker has no
 * engine serving), each worker's cache that of its GPU type (`llm.engine.byGpu`). Undefined
 * without an `llm.engine` or, for the usage, unless every GPU type's cache has a size
 * (`kvCacheTokens`: an unlimited cache has no usage to show).
 */
import { engineOn, KV_BLOCK_TOKENS } from '../contract/llm-config.js';
import type { Endpoint } from './endpoint.js';

/** Blocks in one worker's KV cache on each GPU type (one entry when the endpoint lists no gpus); undefined: a cache is not modelled. */
export function blocksPerWorker(ep: Endpoint): number[] | undefined {
  const e = ep.cfg.llm?.engine;
  if (e === undefined) return undefined;
  const blocks = (ep.cfg.gpus ?? [undefined]).map((g) => engineOn(e, g).kvCacheTokens);
  return blocks.every((t) => t !== undefined) ? blocks.map((t) => Math.floor(t! / KV_BLOCK_TOKENS)) : undefined;
}

/** The endpoint's KV cache usage now (0 with no worker up); undefined where blocksPerWorker is. */
export function kvCacheUsage(ep: Endpoint, blocks = blocksPerWorker(ep)): number | undefined {
  if (blocks === undefined) return undefined;
  const byGpu = ep.pool.countsByGpu;
  let total = 0;
  if (byGpu === undefined) total = (ep.pool.counts.running + ep.pool.counts.idle) * blocks[0]!;
  else for (let t = 0; t < byGpu.length; t++) total += (byGpu[t]!.running + byGpu[t]!.idle) * blocks[t]!;
  return total > 0 ? ep.engines.usedBlocks / total : 0;
}
