/** A histogram given as value → count (whole ms, or ms × `scale`), encoded as the recorder encodes a window. */
import { SampleCounts } from '../../src/load/record/sample-counts.js';
import { encodeCounts } from '../../src/load/record/sparse-encoding.js';

export function encodeSparse(counts: ReadonlyMap<number, number>, scale = 1): string {
  const c = new SampleCounts(scale);
  for (const [v, n] of counts) c.addCount(v, n);
  return encodeCounts(c);
}
