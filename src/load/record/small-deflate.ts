/**
 * A zlib stream (RFC 1950) of one fixed-Huffman deflate block (RFC 1951 §3.2.6) with greedy
 * LZ77 matches, in plain JavaScript: for the small payloads of per-window histograms (tens of
 * bytes, where zlib itself mostly picks a fixed block too) it is some ten times cheaper than
 * a `zlib.deflateSync` call, whose set-up dominates at that size. Any inflater reads it.
 */
const MIN_MATCH = 3;
const MAX_MATCH = 258;
const HASH_SIZE = 1 << 12;
/** Length codes 257…285: base length and extra bits. */
const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
/** Distance codes 0…29: base distance and extra bits. */
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

const head = new Int32Array(HASH_SIZE);
let out = new Uint8Array(1024);
let pos = 0;
let bitBuf = 0;
let bitCount = 0;

/** `data` deflated into a zlib stream (input of at most 32 KiB: every match is within one window). */
export function smallDeflate(data: Uint8Array): Uint8Array {
  const n = data.length;
  if (n > 32_768) throw new RangeError('smallDeflate: input over 32 KiB');
  // Worst case: 9 bits per literal, plus header, block end and checksum.
  if (out.length < n * 2 + 16) out = new Uint8Array(n * 2 + 16);
  pos = 0;
  bitBuf = 0;
  bitCount = 0;
  out[pos++] = 0x78; // CMF: deflate, 32 KiB window
  out[pos++] = 0x01; // FLG: fastest, no dictionary; (0x78 << 8 | 0x01) % 31 === 0
  bits(1, 1); // BFINAL
  bits(1, 2); // BTYPE 01: fixed Huffman
  head.fill(-1);
  let i = 0;
  while (i < n) {
    let len = 0;
    let dist = 0;
    if (i + MIN_MATCH <= n) {
      const h = ((data[i]! << 8) ^ (data[i + 1]! << 4) ^ data[i + 2]!) & (HASH_SIZE - 1);
      const cand = head[h]!;
      head[h] = i;
      if (cand >= 0) {
        const max = Math.min(MAX_MATCH, n - i);
        let l = 0;
        while (l < max && data[cand + l] === data[i + l]) l++;
        if (l >= MIN_MATCH) {
          len = l;
          dist = i - cand;
        }
      }
    }
    if (len === 0) {
      literal(data[i]!);
      i++;
      continue;
    }
    match(len, dist);
    // Later positions inside the match join the hash too (more matches for what follows).
    for (let k = i + 1; k < i + len && k + MIN_MATCH <= n; k++) head[((data[k]! << 8) ^ (data[k + 1]! << 4) ^ data[k + 2]!) & (HASH_SIZE - 1)] = k;
    i += len;
  }
  huffman(256);
  if (bitCount > 0) out[pos++] = bitBuf & 0xff;
  const a = adler32(data);
  out[pos++] = a >>> 24;
  out[pos++] = (a >>> 16) & 0xff;
  out[pos++] = (a >>> 8) & 0xff;
  out[pos++] = a & 0xff;
  return out.slice(0, pos);
}

/** `count` bits of `v`, least significant first (deflate's bit order for everything but Huffman codes). */
function bits(v: number, count: number): void {
  bitBuf |= v << bitCount;
  bitCount += count;
  while (bitCount >= 8) {
    out[pos++] = bitBuf & 0xff;
    bitBuf >>>= 8;
    bitCount -= 8;
  }
}

/** A Huffman code: most significant bit first. */
function code(c: number, len: number): void {
  let r = 0;
  for (let k = 0; k < len; k++) r |= ((c >> k) & 1) << (len - 1 - k);
  bits(r, len);
}

/** Symbol 0…287 of the fixed literal/length code. */
function huffman(sym: number): void {
  if (sym < 144) code(0x30 + sym, 8);
  else if (sym < 256) code(0x190 + sym - 144, 9);
  else if (sym < 280) code(sym - 256, 7);
  else code(0xc0 + sym - 280, 8);
}

function literal(b: number): void {
  huffman(b);
}

function match(len: number, dist: number): void {
  let l = LEN_BASE.length - 1;
  while (LEN_BASE[l]! > len) l--;
  huffman(257 + l);
  if (LEN_EXTRA[l]) bits(len - LEN_BASE[l]!, LEN_EXTRA[l]!);
  let d = DIST_BASE.length - 1;
  while (DIST_BASE[d]! > dist) d--;
  code(d, 5);
  if (DIST_EXTRA[d]) bits(dist - DIST_BASE[d]!, DIST_EXTRA[d]!);
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; i++) {
    a = (a + data[i]!) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
