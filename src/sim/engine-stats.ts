/**
 * What an endpoint's batching engines hold, summed over its workers (vLLM's scheduler gauges):
 * requests running in a batch and waiting inside the worker, KV cache blocks in use, and
 * preemptions and prefix cache queries and hits so far. Each engine adds its changes as it makes them (llm-engine.ts `publish`),
 * at its own events: the occupancy sampler reads it after every event.
 */
export class EngineStats {
  /** Sequences in a batch (vLLM num_requests_running). */
  running = 0;
  /** Jobs a worker holds that are not in its batch: in its front end, or waiting for a place or for cache blocks (num_requests_waiting). */
  waiting = 0;
  /** KV cache blocks held, at the engines' last changes of their batches. */
  usedBlocks = 0;
  /** Sequences preempted (their blocks taken back) since the start (num_preemptions). */
  preemptions = 0;
  /**
   * With `prefixCaching`: prompt tokens of the requests that joined a batch (their first join), and
   * of those the tokens found in the worker's prefix cache (vLLM prefix_cache_queries, _hits).
   */
  prefixQueries = 0;
  prefixHits = 0;
}
