/** A histogram given as whole ms → count, encoded as the recorder encodes a window. */
import { SampleCounts } from '../../src/load/record/sample-counts.js';
import { encodeCounts } from '../../src/load/record/sparse-encoding.js';

export function encodeSparse(counts: ReadonlyMap<number, number>): string {
  const c = new SampleCounts();
  for (const [v, n] of counts) c.addCount(v, n);
  return encodeCounts(c);
}
