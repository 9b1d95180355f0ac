/**
 * The HdrHistogram V2 compressed base64 of a histogram given as sparse counts by HDR index
 * (sample-counts.ts), as `report/histogram.ts` `encode` gives it for the same samples (its range
 * and precision: 1 to HIGHEST_MS × scale, 3 significant digits; the counts' `highest` says which),
 * without building a histogram: no 40 000-slot counts array to clear and walk per window, only the
 * indexes seen. The uncompressed V2 payload is the same byte for byte. It is deflated by node's zlib at its defaults, as hdr-histogram-js does,
 * when it has SMALL_PAYLOAD bytes or more (then the result is the same byte for byte too);
 * a smaller one, most windows', by `smallDeflate` (other bytes, the same histogram when decoded,
 * and no larger: zlib's set-up costs more than the work at that size). A small cache skips both
 * for a payload seen before (windows of a quiet series repeat).
 */
import { deflateSync } from 'node:zlib';
import { smallDeflate } from './small-deflate.js';
import { countsIndex } from './hdr-index.js';
import type { SampleCounts } from './sample-counts.js';

/** V2 cookies, "TLZE" word size (hdr-histogram-js JsHistogram.encoding). */
const ENCODING_COOKIE = 0x1c849303 | 0x10;
const COMPRESSED_COOKIE = 0x1c849304 | 0x10;
const SIGNIFICANT_DIGITS = 3;
const HEADER_BYTES = 40;
/** From this payload size on, zlib's dynamic Huffman codes beat smallDeflate's fixed ones. */
export const SMALL_PAYLOAD = 128;

export { countsIndex };

/** Compressed payloads by uncompressed payload (latin1), bounded. */
const cache = new Map<string, string>();
const CACHE_MAX = 4096;
let buf = new Uint8Array(4096);
let dv = new DataView(buf.buffer);

/** A window's counts (sample-counts.ts) encoded. Empty → `""`. */
export function encodeCounts(c: SampleCounts): string {
  if (c.size === 0) return '';
  const indexes = c.indexes();
  // Worst case per index: a zero run and a count, 9 bytes each.
  const need = HEADER_BYTES + indexes.length * 18;
  if (buf.length < need) {
    buf = new Uint8Array(need * 2);
    dv = new DataView(buf.buffer);
  }
  let p = HEADER_BYTES;
  let next = 0;
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k]!;
    const zeros = i - next;
    if (zeros === 1) buf[p++] = 0;
    else if (zeros > 1) p = zigzag(buf, p, -zeros);
    p = zigzag(buf, p, c.counts[i]!);
    next = i + 1;
  }
  dv.setInt32(0, ENCODING_COOKIE);
  dv.setInt32(4, p - HEADER_BYTES);
  dv.setInt32(8, 1);
  dv.setInt32(12, SIGNIFICANT_DIGITS);
  setInt64(dv, 16, 1);
  setInt64(dv, 24, c.highest);
  setInt64(dv, 32, 1);
  const key = Buffer.from(buf.buffer, buf.byteOffset, p).toString('latin1');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const z = p < SMALL_PAYLOAD ? smallDeflate(buf.subarray(0, p)) : deflateSync(buf.subarray(0, p));
  const out = Buffer.allocUnsafe(8 + z.length);
  out.writeInt32BE(COMPRESSED_COOKIE, 0);
  out.writeInt32BE(z.length, 4);
  out.set(z, 8);
  const s = out.toString('base64');
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, s);
  return s;
}

/** ZigZag LEB128 as HdrHistogram writes it (values here stay far below 2^49). */
function zigzag(b: Uint8Array, p: number, value: number): number {
  let v = value >= 0 ? value * 2 : -value * 2 - 1;
  while (v >= 0x80) {
    b[p++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  b[p++] = v;
  return p;
}

function setInt64(dv: DataView, at: number, v: number): void {
  dv.setInt32(at, Math.floor(v / 2 ** 32));
  dv.setInt32(at + 4, v | 0);
}
