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

/**
 * Alea (Johannes Baagøe, 2010; MIT), bit for bit as seedrandom/lib/alea.js. The state lives in a
 * Float64Array: number fields holding doubles would box a new heap number on every draw.
 */
export class Alea implements RandomStream {
  /** s0, s1, s2, c */
  private readonly s = new Float64Array(4);

  constructor(seed: string) {
    const m = mash();
    const s = this.s;
    s[0] = m(' ');
    s[1] = m(' ');
    s[2] = m(' ');
    s[3] = 1;
    for (let i = 0; i < 3; i++) {
      s[i]! -= m(seed);
      if (s[i]! < 0) s[i]! += 1;
    }
  }

  next(): number {
    const s = this.s;
    const t = 2091639 * s[0]! + s[3]! * INV_2_32;
    s[0] = s[1]!;
    s[1] = s[2]!;
    const c = t | 0;
    s[3] = c;
    return (s[2] = t - c);
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
