/**
 * One worker's prefix cache (`llm.engine.prefixCaching`, vLLM's automatic prefix caching): the KV
 * cache blocks of prompts, by content id (contract/prompt-blocks.ts). A block is held by the
 * running sequences whose prompt has it (ref-counted: held by several, it is one block of the
 * cache), or free but still cached once none holds it. Free cached blocks are evicted least
 * recently used first when the engine needs room (llm-engine.ts); a sequence's blocks are freed
 * last block first, as vLLM frees them, so a prompt's tail goes before its shared prefix.
 *
 * Counting: `held` distinct blocks held, `refs` the holds summed over sequences; the engine's
 * per-sequence block counts (kv-cache.ts) count a shared block once per holder, `refs − held` too
 * many.
 */
export class PrefixCache {
  /** Every cached block: its id → the sequences holding it (0: free, and in `free`). */
  private readonly holders = new Map<number, number>();
  /** Free cached blocks, least recently used first (a Set keeps insertion order). */
  private readonly free = new Set<number>();
  /** Distinct blocks held by sequences. */
  held = 0;
  /** Holds summed over sequences. */
  refs = 0;

  /** Free cached blocks (evictable). */
  get freeCount(): number {
    return this.free.size;
  }

  /** Blocks counted twice or more by per-sequence counts (`refs − held`). */
  get shared(): number {
    return this.refs - this.held;
  }

  /** How many leading blocks of `ids` are cached (held or free), at most `max`: vLLM stops at the first miss. */
  hits(ids: readonly number[], max: number): number {
    let k = 0;
    while (k < max && this.holders.has(ids[k]!)) k++;
    return k;
  }

  /** How many of `ids` some sequence holds now (taking them costs no new block). */
  heldAmong(ids: readonly number[]): number {
    let n = 0;
    for (const id of ids) if ((this.holders.get(id) ?? 0) > 0) n++;
    return n;
  }

  /** A sequence takes its blocks: cached ones are shared (a free one is taken off the free list), the rest become cached. */
  acquire(ids: readonly number[]): void {
    for (const id of ids) {
      const r = this.holders.get(id);
      if (r === undefined || r === 0) {
        if (r === 0) this.free.delete(id);
        this.held++;
      }
      this.holders.set(id, (r ?? 0) + 1);
    }
    this.refs += ids.length;
  }

  /** A sequence lets its blocks go (last first): those nobody else holds stay cached as free blocks, most recently used. */
  release(ids: readonly number[]): void {
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i]!;
      const r = this.holders.get(id)! - 1;
      this.holders.set(id, r);
      if (r === 0) {
        this.free.add(id);
        this.held--;
      }
    }
    this.refs -= ids.length;
  }

  /** Forgets the `n` least recently used free blocks. */
  evict(n: number): void {
    for (const id of this.free) {
      if (n-- <= 0) return;
      this.free.delete(id);
      this.holders.delete(id);
    }
  }

  /** Empty (the worker stopped or crashed: its GPU memory is gone). */
  clear(): void {
    this.holders.clear();
    this.free.clear();
    this.held = this.refs = 0;
  }
}
