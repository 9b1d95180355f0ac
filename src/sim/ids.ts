/**
 * Deterministic job ids, shaped like the real service's: a UUID v4 with a region suffix (`…-u1`);
 * `/runsync` ids start with `sync-`.
 *
 * An id is a pure function of the job's sequence number (and the run's keys, drawn once from the
 * `ids` stream): the last 8 hex digits before `-u1` are the sequence number XOR a mask, the other
 * random-looking digits a keyed hash of it. So a lookup by id is an array index (job-table.ts),
 * and a job need not keep its id string: it is built when asked for (`format`). A retained young
 * string per job cost more garbage-collection time than building it again on the rare lookups.
 * Ids are built from char codes in one go (a flat string, not a tree of concatenations).
 */
import type { RandomStream } from '../lib/random.js';

const HEX = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const DASH = 45;
/** Length of `-u1`. */
const SUFFIX = 3;
/** `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx-u1` */
const ID_LENGTH = 39;
const SYNC = 'sync-';

export class JobIds {
  /** Character codes of a plain id and of a `sync-` id, rewritten in place for each new id. */
  private readonly plain: number[] = new Array<number>(ID_LENGTH).fill(0);
  private readonly sync: number[] = new Array<number>(SYNC.length + ID_LENGTH).fill(0);
  private readonly mask: number;
  /** Hash keys of the three random-looking words. */
  private readonly keys: Int32Array;
  private seq = 0;
  /** The last id made, and its sequence number: `seqOf` of a fresh id skips parsing. */
  private lastId = '';
  private lastSeq = -1;

  constructor(rng: RandomStream) {
    this.mask = rng.int32() >>> 0;
    this.keys = Int32Array.of(rng.int32(), rng.int32(), rng.int32());
    for (let i = 0; i < SYNC.length; i++) this.sync[i] = SYNC.charCodeAt(i);
    for (const codes of [this.plain, this.sync]) {
      const o = codes.length - ID_LENGTH;
      for (const at of [8, 13, 18, 23, 36]) codes[o + at] = DASH;
      codes[o + 14] = 52; // version 4
      codes[o + 37] = 117; // "u1"
      codes[o + 38] = 49;
    }
  }

  /** A new id; its sequence number is `seqOf(id)`. */
  next(sync: boolean): string {
    this.lastSeq = this.seq++;
    return (this.lastId = this.format(this.lastSeq, sync));
  }

  /** The id of sequence number `seq` (the same string `next` gave it). */
  format(seq: number, sync: boolean): string {
    const k = this.fill(seq, sync);
    // Plain ids (the hot path) spell out the arguments: cheaper than `apply`'s spread of an array.
    return sync
      ? String.fromCharCode.apply(null, k)
      : String.fromCharCode(
          k[0]!,
          k[1]!,
          k[2]!,
          k[3]!,
          k[4]!,
          k[5]!,
          k[6]!,
          k[7]!,
          k[8]!,
          k[9]!,
          k[10]!,
          k[11]!,
          k[12]!,
          k[13]!,
          k[14]!,
          k[15]!,
          k[16]!,
          k[17]!,
          k[18]!,
          k[19]!,
          k[20]!,
          k[21]!,
          k[22]!,
          k[23]!,
          k[24]!,
          k[25]!,
          k[26]!,
          k[27]!,
          k[28]!,
          k[29]!,
          k[30]!,
          k[31]!,
          k[32]!,
          k[33]!,
          k[34]!,
          k[35]!,
          k[36]!,
          k[37]!,
          k[38]!,
        );
  }

  /**
   * Is `id` the id of sequence number `seq`? The same answer as `format(seq, sync) === id`,
   * without building a string: every position is read once and checked against its digit
   * group (this runs on every lookup by id).
   */
  matches(id: string, seq: number, sync: boolean): boolean {
    const o = sync ? SYNC.length : 0;
    if (id.length !== o + ID_LENGTH || (sync && !id.startsWith(SYNC))) return false;
    const a = mix(seq ^ this.keys[0]!);
    const b = mix(seq ^ this.keys[1]!);
    const c = mix(seq ^ this.keys[2]!);
    return (
      hexAt(id, o, 8) === a >>> 0 &&
      id.charCodeAt(o + 8) === DASH &&
      hexAt(id, o + 9, 4) === b >>> 16 &&
      id.charCodeAt(o + 13) === DASH &&
      id.charCodeAt(o + 14) === 52 &&
      hexAt(id, o + 15, 3) === (b & 0xfff) &&
      id.charCodeAt(o + 18) === DASH &&
      id.charCodeAt(o + 19) === HEX[8 + ((c >>> 30) & 3)] &&
      hexAt(id, o + 20, 3) === ((c >>> 16) & 0xfff) &&
      id.charCodeAt(o + 23) === DASH &&
      hexAt(id, o + 24, 4) === (c & 0xffff) &&
      hexAt(id, o + 28, 8) === (seq ^ this.mask) >>> 0 &&
      id.charCodeAt(o + 36) === DASH &&
      id.charCodeAt(o + 37) === 117 &&
      id.charCodeAt(o + 38) === 49
    );
  }

  /** Writes the character codes of the id of `seq` into the reused array, and returns it. */
  private fill(seq: number, sync: boolean): number[] {
    const codes = sync ? this.sync : this.plain;
    const o = codes.length - ID_LENGTH;
    const a = mix(seq ^ this.keys[0]!);
    const b = mix(seq ^ this.keys[1]!);
    const c = mix(seq ^ this.keys[2]!);
    hex8(codes, o, a);
    hex4(codes, o + 9, b >>> 16);
    hex3(codes, o + 15, b);
    codes[o + 19] = HEX[8 + ((c >>> 30) & 3)]!; // variant 10xx
    hex3(codes, o + 20, c >>> 16);
    hex4(codes, o + 24, c);
    hex8(codes, o + 28, (seq ^ this.mask) >>> 0);
    return codes;
  }

  /** The sequence number an id of this run carries, or -1 when it cannot be one of ours. */
  seqOf(id: string): number {
    if (id === this.lastId) return this.lastSeq;
    const end = id.length - SUFFIX;
    if (end < 8) return -1;
    const x = hexAt(id, end - 8, 8);
    if (x < 0) return -1;
    const seq = (x ^ this.mask) >>> 0;
    return seq < this.seq ? seq : -1;
  }
}

/** The value of the `n` lower-case hex digits of `s` at `at`, or -1 if one is not such a digit. */
function hexAt(s: string, at: number, n: number): number {
  let x = 0;
  for (let i = at; i < at + n; i++) {
    const ch = s.charCodeAt(i);
    const v = ch >= 48 && ch <= 57 ? ch - 48 : ch >= 97 && ch <= 102 ? ch - 87 : -1;
    if (v < 0) return -1;
    x = x * 16 + v;
  }
  return x;
}

/** A 32-bit integer hash (lowbias32, Chris Wellons): every input bit flips about half the output bits. */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  return x ^ (x >>> 16);
}

/** Writes the low 8, 4 or 3 hex digits of `x` at `codes[at…]`, most significant first (unrolled: hot). */
function hex8(codes: number[], at: number, x: number): void {
  hex4(codes, at, x >>> 16);
  hex4(codes, at + 4, x);
}

function hex4(codes: number[], at: number, x: number): void {
  codes[at] = HEX[(x >>> 12) & 15]!;
  hex3(codes, at + 1, x);
}

function hex3(codes: number[], at: number, x: number): void {
  codes[at] = HEX[(x >>> 8) & 15]!;
  codes[at + 1] = HEX[(x >>> 4) & 15]!;
  codes[at + 2] = HEX[x & 15]!;
}
