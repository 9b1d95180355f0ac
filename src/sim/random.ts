/**
 * Seeded random streams. One seed forks into named streams (`arrivals`, `service`, `failures`,
 * `ids`, …) so a draw in one never shifts another. The algorithm is pinned to seedrandom's Alea
 * (golden values in tests depend on it); it is ported here as a class rather than called through
 * seedrandom's closures: a draw then updates four number fields in place instead of allocating,
 * which matters at millions of draws per second.
 */

export interface RandomStream {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform 32-bit signed integer. */
  int32(): number;
}

/** 2^-32 */
const INV_2_32 = 2.3283064365386963e-10;

/** Baagøe's Mash, as seedrandom seeds Alea with it (same arithmetic, same results). */
function mash(): (data: string) => number {
  let n = 0xefc8249d;
  return (data) => {
    for (let i = 0; i < data.length; i++) {
      n += data.charCodeAt(i);
      let h = 0.02519603282416938 * n;
      n = h >>> 0;
      h -= n;
      h *= n;
      n = h >>> 0;
      h -= n;
      n += h * 0x100000000; // 2^32
    }
    return (n >>> 0) * INV_2_32;
  };
}

/** Alea (Johannes Baagøe, 2010; MIT), bit for bit as seedrandom/lib/alea.js. */
export class Alea implements RandomStream {
  private s0: number;
  private s1: number;
  private s2: number;
  private c = 1;

  constructor(seed: string) {
    const m = mash();
    this.s0 = m(' ');
    this.s1 = m(' ');
    this.s2 = m(' ');
    this.s0 -= m(seed);
    if (this.s0 < 0) this.s0 += 1;
    this.s1 -= m(seed);
    if (this.s1 < 0) this.s1 += 1;
    this.s2 -= m(seed);
    if (this.s2 < 0) this.s2 += 1;
  }

  next(): number {
    const t = 2091639 * this.s0 + this.c * INV_2_32;
    this.s0 = this.s1;
    this.s1 = this.s2;
    this.c = t | 0;
    return (this.s2 = t - this.c);
  }

  int32(): number {
    return (this.next() * 0x100000000) | 0;
  }
}

export class RandomSource {
  private readonly streams = new Map<string, RandomStream>();

  constructor(readonly seed: number | string) {}

  /** The stream named `name`; the same name always returns the same stream object. */
  stream(name: string): RandomStream {
    let s = this.streams.get(name);
    if (!s) {
      s = new Alea(`${this.seed}/${name}`);
      this.streams.set(name, s);
    }
    return s;
  }
}
