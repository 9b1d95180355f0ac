/**
 * Seeded random streams. One seed forks into named streams (`arrivals`, `service`, `failures`,
 * `ids`, …) so a draw in one never shifts another. The algorithm is pinned to seedrandom's Alea:
 * golden values in tests depend on it.
 */
import alea from 'seedrandom/lib/alea.js';

export interface RandomStream {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform 32-bit signed integer. */
  int32(): number;
}

export class RandomSource {
  private readonly streams = new Map<string, RandomStream>();

  constructor(readonly seed: number | string) {}

  /** The stream named `name`; the same name always returns the same stream object. */
  stream(name: string): RandomStream {
    let s = this.streams.get(name);
    if (!s) {
      const prng = alea(`${this.seed}/${name}`);
      s = { next: () => prng(), int32: () => prng.int32() };
      this.streams.set(name, s);
    }
    return s;
  }
}
