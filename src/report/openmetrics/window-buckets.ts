/**
 * Per-window HDR encodings (RunResult `windows`) counted into classic Prometheus buckets, for
 * metrics.om's per-window histograms. A day's run holds thousands of windows per series, so this
 * reads each encoding's sparse payload straight from the bytes (inflate, then the ZigZag LEB128
 * counts) instead of building an HDR histogram per window: no 80 kB counts array to allocate and
 * walk. The layout facts (which bucket an index falls in, its value for the sum) come from
 * hdr-histogram-js itself, once per layout, so the counts equal `bucketCounts` (histogram-buckets.ts)
 * of the decoded histogram: the same rule as the runner's live /metrics.
 */
import { inflateSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';
import { InternalError, ReportFormatError } from '../../contract/loadlab-error.js';

/** V2 cookies without their word-size bits (hdr-histogram-js encoding.js / JsHistogram.encoding.js). */
const COMPRESSED_COOKIE_BASE = 0x1c849304;
const ENCODING_COOKIE_BASE = 0x1c849303;
const HEADER_BYTES = 40;
/** Windows of a quiet series repeat: results by encoding, bounded. */
const CACHE_MAX = 4096;

/** One window in classic buckets. */
export interface WindowCounts {
  /** Samples per bucket, not cumulative: index j counts values in (bound j-1, bound j]; the last index, those above every bound. */
  perBucket: Float64Array;
  count: number;
  /** Sum of the samples (each at its HDR bucket's median equivalent, as HDR's own mean), ms. */
  sumMs: number;
}

/** Per counts-array index of one HDR layout: the classic bucket it counts in, and its median value (ms). */
interface Layout {
  bucketOf: Uint8Array;
  medianMs: Float64Array;
}

/** Counts per-window encodings into the buckets `boundsMs` (increasing, at most 254 of them). */
export class WindowBucketCounter {
  private readonly layouts = new Map<string, Layout>();
  private readonly cache = new Map<string, WindowCounts>();

  constructor(private readonly boundsMs: readonly number[]) {
    if (boundsMs.length > 254) throw new RangeError('at most 254 bucket bounds');
  }

  /**
   * Buckets of one window's encoding, whose values are ms × `scale` (1: whole ms; 100: the stream
   * times' hundredths of a ms); `""` (an empty window) gives all zeros.
   */
  count(encoded: string, scale = 1): WindowCounts {
    const key = scale === 1 ? encoded : `${scale}:${encoded}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const out: WindowCounts = { perBucket: new Float64Array(this.boundsMs.length + 1), count: 0, sumMs: 0 };
    if (encoded) this.fill(encoded, scale, out);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(key, out);
    return out;
  }

  private fill(encoded: string, scale: number, out: WindowCounts): void {
    const raw = Buffer.from(encoded, 'base64');
    if ((raw.readInt32BE(0) & ~0xf0) !== COMPRESSED_COOKIE_BASE) throw new ReportFormatError('not an HdrHistogram V2 compressed encoding');
    const b = inflateSync(raw.subarray(8, 8 + raw.readInt32BE(4)));
    if ((b.readInt32BE(0) & ~0xf0) !== ENCODING_COOKIE_BASE) throw new ReportFormatError('not an HdrHistogram V2 encoding');
    const payloadBytes = b.readInt32BE(4);
    const digits = b.readInt32BE(12);
    const lowest = Number(b.readBigInt64BE(16));
    const highest = Number(b.readBigInt64BE(24));
    const { bucketOf, medianMs } = this.layout(lowest, highest, digits, scale);
    const end = HEADER_BYTES + payloadBytes;
    let p = HEADER_BYTES;
    let index = 0;
    while (p < end) {
      // ZigZag LEB128 (hdr-histogram-js ZigZagEncoding): up to 9 bytes, the ninth with all 8 bits.
      let v = 0;
      let scale = 1;
      for (let k = 0; ; k++) {
        const byte = b[p++]!;
        if (k === 8) {
          v += byte * scale;
          break;
        }
        v += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
        scale *= 0x80;
      }
      const n = v % 2 === 0 ? v / 2 : -(v + 1) / 2;
      if (n < 0) {
        index -= n;
        continue;
      }
      if (n > 0) {
        if (index >= bucketOf.length) throw new ReportFormatError('HdrHistogram encoding: a count past the highest trackable value');
        out.perBucket[bucketOf[index]!]! += n;
        out.count += n;
        out.sumMs += medianMs[index]! * n;
      }
      index++;
    }
  }

  /** The table of one HDR layout at one scale, built once from hdr-histogram-js's own index arithmetic. */
  private layout(lowest: number, highest: number, digits: number, scale: number): Layout {
    const key = `${lowest}/${highest}/${digits}/${scale}`;
    let l = this.layouts.get(key);
    if (l) return l;
    const h = hdr.build({
      lowestDiscernibleValue: lowest,
      highestTrackableValue: highest,
      numberOfSignificantValueDigits: digits as 3,
      bitBucketSize: 32,
      useWebAssembly: false,
    });
    if (!(h instanceof hdr.JsHistogram)) throw new InternalError('expected a JavaScript HDR histogram');
    const bounds = this.boundsMs;
    const n = h.countsArrayLength;
    l = { bucketOf: new Uint8Array(n), medianMs: new Float64Array(n) };
    let j = 0;
    for (let i = 0; i < n; i++) {
      const v = h.valueFromIndex(i);
      const low = h.lowestEquivalentValue(v) / scale;
      while (j < bounds.length && low > bounds[j]!) j++;
      l.bucketOf[i] = j;
      l.medianMs[i] = h.medianEquivalentValue(v) / scale;
    }
    this.layouts.set(key, l);
    return l;
  }
}
