/**
 * Counts by string key — the statuses of ended jobs, the outcomes of sessions: a few keys, and
 * nearly always the same one. The last key's counter is remembered, so the common case is one
 * string compare (the same interned string, mostly) instead of a Map get and a Map set per job.
 */
export class Tally {
  private readonly counts = new Map<string, { n: number }>();
  private lastKey: string | undefined = undefined;
  private last = { n: 0 };

  add(key: string): void {
    if (key !== this.lastKey) {
      let c = this.counts.get(key);
      if (!c) this.counts.set(key, (c = { n: 0 }));
      this.lastKey = key;
      this.last = c;
    }
    this.last.n++;
  }

  /** Every key counted so far, with its count, in the order first seen. */
  toMap(): Map<string, number> {
    return new Map([...this.counts].map(([k, c]) => [k, c.n]));
  }
}
