/**
 * The reference model's prefix cache (`llm.engine.prefixCaching`), plain: a prompt's block is
 * named by the text up to its end (`blockIdsOf`: equal names, equal text after equal text, which
 * the core's chained hashes stand for), blocks held by running sequences are counted by holder, and
 * the free cached blocks are a list, least recently used first: a sequence gives its blocks back
 * last first, and room is made from the front of the list.
 */
export function blockIdsOf(text: string): string[] {
  return Array.from({ length: Math.floor(text.length / 64) }, (_, i) => text.slice(0, 64 * (i + 1)));
}

export class RefPrefixCache {
  private holders = new Map<string, number>();
  private free: string[] = [];

  get freeCount(): number {
    return this.free.length;
  }

  /** Blocks counted more than once when each sequence counts its own: holds less distinct blocks held. */
  shared(): number {
    let holds = 0;
    let held = 0;
    for (const h of this.holders.values()) {
      holds += h;
      if (h > 0) held++;
    }
    return holds - held;
  }

  /** Leading blocks of `ids` cached, at most `max`. */
  hits(ids: readonly string[], max: number): number {
    let k = 0;
    while (k < max && this.holders.has(ids[k]!)) k++;
    return k;
  }

  /** Of `ids`, the blocks a running sequence holds. */
  heldAmong(ids: readonly string[]): number {
    return ids.filter((id) => (this.holders.get(id) ?? 0) > 0).length;
  }

  acquire(ids: readonly string[]): void {
    for (const id of ids) {
      const h = this.holders.get(id) ?? 0;
      if (h === 0) this.free = this.free.filter((x) => x !== id);
      this.holders.set(id, h + 1);
    }
  }

  release(ids: readonly string[]): void {
    for (const id of [...ids].reverse()) {
      const h = this.holders.get(id)! - 1;
      this.holders.set(id, h);
      if (h === 0) this.free.push(id);
    }
  }

  evict(n: number): void {
    for (const id of this.free.splice(0, Math.max(0, n))) this.holders.delete(id);
  }

  clear(): void {
    this.holders.clear();
    this.free = [];
  }
}
