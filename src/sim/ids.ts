/**
 * Deterministic job ids from the `ids` random stream, shaped like the real service's: a UUID v4
 * with a region suffix (`…-u1`); `/runsync` ids start with `sync-` (FACTS "Response bodies").
 */
import type { RandomStream } from './random.js';

const HEX = '0123456789abcdef';

function hex8(x: number): string {
  let s = '';
  for (let i = 28; i >= 0; i -= 4) s += HEX[(x >>> i) & 15];
  return s;
}

export function uuid(rng: RandomStream): string {
  const a = hex8(rng.int32());
  const b = hex8(rng.int32());
  const c = hex8(rng.int32());
  const d = hex8(rng.int32());
  // version 4, variant 10xx
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${HEX[8 + (rng.int32() & 3)]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

export function jobId(rng: RandomStream, sync: boolean): string {
  return `${sync ? 'sync-' : ''}${uuid(rng)}-u1`;
}
