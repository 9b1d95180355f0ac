/**
 * Job ids: `matches` (the lookup check, no string built) agrees with building the id, for plain
 * and `sync-` ids, on the id itself and on every one-character change of it.
 */
import { describe, expect, it } from 'vitest';
import { JobIds } from '../../src/sim/ids.js';
import { RandomSource } from '../../src/lib/random.js';

describe('JobIds.matches', () => {
  it('is true exactly when the id is the one format builds for the sequence number', () => {
    const ids = new JobIds(new RandomSource('ids-test').stream('ids'));
    const made: { id: string; seq: number; sync: boolean }[] = [];
    for (let i = 0; i < 300; i++) {
      const sync = i % 3 === 0;
      const id = ids.next(sync);
      made.push({ id, seq: ids.seqOf(id), sync });
    }
    const alphabet = '0123456789abcdefABCDEF-u4sy/x';
    let checked = 0;
    for (const { id, seq, sync } of made) {
      expect(ids.matches(id, seq, sync)).toBe(true);
      expect(ids.matches(id, seq, !sync)).toBe(false);
      expect(ids.matches(id, seq + 1, sync)).toBe(false);
      expect(ids.matches(`${id}x`, seq, sync)).toBe(false);
      expect(ids.matches(id.slice(1), seq, sync)).toBe(false);
      for (let p = 0; p < id.length; p += 1 + (seq % 3)) {
        for (const ch of alphabet) {
          const other = id.slice(0, p) + ch + id.slice(p + 1);
          expect(ids.matches(other, seq, sync)).toBe(other === ids.format(seq, sync));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });
});
