/**
 * Deterministic job ids, shaped like the real service's: a UUID v4 with a region suffix (`…-u1`);
 * `/runsync` ids start with `sync-` (FACTS "Response bodies").
 *
 * The last 8 hex digits before `-u1` carry the job's sequence number XOR a per-run mask, so a
 * lookup by id is an array index (see job-table.ts) instead of a hash-map entry: with hundreds of
 * thousands of retained jobs churning, a Map costs more than the rest of a job's life together.
 * The other digits come from the `ids` random stream. Ids are built from char codes in one go
 * (a flat string, not a tree of concatenations: every retained job keeps its id).
 */
import type { RandomStream } from './random.js';

const HEX = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const DASH = 45;
/** Length of `-u1`. */
const SUFFIX = 3;

export class JobIds {
  private readonly codes: number[] = [];
  private readonly mask: number;
  private seq = 0;

  constructor(private readonly rng: RandomStream) {
    this.mask = rng.int32() >>> 0;
  }

  /** A new id; its sequence number is `seqOf(id)`. */
  next(sync: boolean): string {
    const codes = this.codes;
    const rng = this.rng;
    codes.length = 0;
    if (sync) codes.push(115, 121, 110, 99, DASH); // "sync-"
    const a = rng.int32();
    const b = rng.int32();
    const c = rng.int32();
    this.hex(a, 8);
    codes.push(DASH);
    this.hex(b >>> 16, 4);
    codes.push(DASH, 52); // version 4
    this.hex(b, 3);
    codes.push(DASH, HEX[8 + ((c >>> 30) & 3)]!); // variant 10xx
    this.hex(c >>> 16, 3);
    codes.push(DASH);
    this.hex(c, 4);
    this.hex((this.seq++ ^ this.mask) >>> 0, 8);
    codes.push(DASH, 117, 49); // "-u1"
    return String.fromCharCode.apply(null, codes);
  }

  /** The sequence number an id of this run carries, or -1 when it cannot be one of ours. */
  seqOf(id: string): number {
    const end = id.length - SUFFIX;
    if (end < 8) return -1;
    let x = 0;
    for (let i = end - 8; i < end; i++) {
      const ch = id.charCodeAt(i);
      const v = ch >= 48 && ch <= 57 ? ch - 48 : ch >= 97 && ch <= 102 ? ch - 87 : -1;
      if (v < 0) return -1;
      x = x * 16 + v;
    }
    const seq = (x ^ this.mask) >>> 0;
    return seq < this.seq ? seq : -1;
  }

  private hex(x: number, digits: number): void {
    for (let i = digits - 1; i >= 0; i--) this.codes.push(HEX[(x >>> (i * 4)) & 15]!);
  }
}
