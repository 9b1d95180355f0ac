/**
 * lib/random.ts's Alea is a port of seedrandom's (the design's named generator) for speed: the
 * same seeds must give seedrandom's draws, bit for bit, or every golden report would drift from
 * the algorithm it claims. Here the port and seedrandom's own module draw side by side.
 */
import { describe, expect, it } from 'vitest';
import alea from 'seedrandom/lib/alea.js';
import { Alea, RandomSource } from '../../src/lib/random.js';

const SEEDS = ['1', '42', 'steady-mix/clients/arrivals/submit-and-poll', '', 'é漢字🙂', '1/service'];

describe('Alea against seedrandom/lib/alea.js', () => {
  for (const seed of SEEDS) {
    it(`seed ${JSON.stringify(seed)}: the first 10 000 draws and int32s are seedrandom's`, () => {
      const ours = new Alea(seed);
      const theirs = alea(seed);
      for (let i = 0; i < 10_000; i++) expect(ours.next()).toBe(theirs());
      const ours32 = new Alea(seed);
      const theirs32 = alea(seed);
      for (let i = 0; i < 1000; i++) expect(ours32.int32()).toBe(theirs32.int32());
    });
  }

  it('a named stream of a RandomSource is seedrandom\'s Alea seeded with "seed/name"', () => {
    const s = new RandomSource(7).stream('arrivals');
    const theirs = alea('7/arrivals');
    for (let i = 0; i < 1000; i++) expect(s.next()).toBe(theirs());
  });
});
