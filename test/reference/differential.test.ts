/**
 * Differential test: the fast core (src/sim through src/api) against the plain reference model
 * (test/reference/model.ts) on the same random sequences of requests and clock advances. Every
 * step must give the same answers, held answers, `/health` and job bodies (drive.ts).
 *
 * REF_RUNS=N runs N sequences (default 300) and prints coverage figures; REF_SEED picks
 * fast-check's seed. Load-balancing endpoints have their own sequences besides (lb-arbs.ts):
 * REF_LB_RUNS (default 500) under each of two seeds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArb } from './commands.js';
import { lbCaseArb } from './lb-arbs.js';
import type { RefCase } from './case.js';
import { runCase, type CaseResult } from './drive.js';
import { REGRESSIONS } from './regressions.js';

const RUNS = Number(process.env.REF_RUNS ?? 300);
const SEED = Number(process.env.REF_SEED ?? 20261125);
const LB_RUNS = Number(process.env.REF_LB_RUNS ?? 500);

const explain = (r: CaseResult): string => (r.ok ? 'ok' : `step ${r.step}: ${r.what}\n core:  ${JSON.stringify(r.core)}\n model: ${JSON.stringify(r.model)}`);

describe.runIf(REGRESSIONS.length > 0)('reference model: fixed regression sequences', () => {
  for (const c of REGRESSIONS) {
    it(c.name, () => {
      const r = runCase(c);
      expect(r.ok, explain(r)).toBe(true);
    });
  }
});

/** Runs `runs` cases of `arb` under `seed`; with REF_RUNS set, prints how often each answer came. */
function agree(arb: fc.Arbitrary<RefCase>, runs: number, seed: number): void {
  const tally = process.env.REF_RUNS ? new Map<string, number>() : undefined;
  fc.assert(
    fc.property(arb, (c) => {
      const r = runCase(c, tally);
      if (!r.ok) throw new Error(explain(r));
    }),
    { numRuns: runs, seed, endOnFailure: false },
  );
  if (tally)
    console.log(
      `${[...tally]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('\n')}`,
    );
}

describe('reference model: load-balancing endpoints', () => {
  for (const seed of [SEED, SEED + 1]) {
    it(`core and model agree on ${LB_RUNS} sequences (seed ${seed})`, () => agree(lbCaseArb, LB_RUNS, seed), Math.max(60_000, LB_RUNS * 100));
  }
});

describe('reference model: random sequences', () => {
  it(`core and model agree on ${RUNS} sequences`, () => agree(caseArb, RUNS, SEED), Math.max(60_000, RUNS * 100));
});
