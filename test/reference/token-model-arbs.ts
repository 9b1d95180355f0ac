/** Random cases of the token model (`llm` with ttftMs and interTokenMs) for the differential test. */
import fc from 'fast-check';
import { opLimit, opt, pickArb, sec } from './arb-helpers.js';
import type { CaseConfig, Cmd, RefCase } from './case.js';

/**
 * The token model: ttft and gaps on round numbers (or uniform draws), a few to a few dozen tokens,
 * short execution timeouts and retention; streamed and plain chat completions, /run and /runsync
 * jobs with max_tokens, crashes and failures, cancels and retries, so tokens, run ends, timeouts,
 * deadlines and held requests keep meeting.
 */
const uniformArb = (min: number, max: number, step: number) =>
  fc
    .record({ dist: fc.constant('uniform' as const), minMs: fc.integer({ min: min / step, max: max / step }), maxMs: fc.integer({ min: 0, max: max / step }) })
    .map((u) => ({ dist: u.dist, minMs: u.minMs * step, maxMs: (u.minMs + u.maxMs) * step }));
const llmArb = fc.record({
  ttftMs: fc.oneof(fc.constantFrom(0, 100, 250, 500, 1_000), uniformArb(0, 1_000, 50)),
  interTokenMs: fc.oneof(fc.constantFrom(0, 10, 50, 100, 250), uniformArb(0, 300, 10)),
  outputTokens: fc.oneof(fc.integer({ min: 1, max: 30 }), uniformArb(1, 40, 1)),
});

const llmConfigArb: fc.Arbitrary<CaseConfig> = fc
  .record(
    {
      seed: fc.integer({ min: 1, max: 1_000 }),
      workers: fc.integer({ min: 1, max: 3 }),
      workersMin: fc.integer({ min: 0, max: 2 }),
      coldStartMs: fc.constantFrom(0, 0, 500, 1_000),
      executionTimeoutMs: fc.constantFrom(1_000, 2_000, 5_000, 600_000),
      retention: fc.record({ runMs: sec(10), runsyncMs: sec(5) }),
      limits: fc.record({ operations: fc.record({ openai: opLimit, run: opLimit }, { requiredKeys: [] }) }, { requiredKeys: [] }),
      listen: fc.boolean(),
      llm: llmArb,
    },
    { requiredKeys: ['seed', 'workers', 'workersMin', 'coldStartMs', 'executionTimeoutMs', 'retention', 'llm'] },
  )
  .map((c) => ({ ...c, workersMin: Math.min(c.workersMin!, c.workers) }));

const tokenCapArb = opt(fc.integer({ min: 1, max: 30 }));
const llmAdvanceArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 50, 100, 250, 500, 1_000, 2_000) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(5_000, 10_000, 30_000) },
);
const llmCmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      { t: fc.constant('openai' as const), stream: fc.boolean(), maxTokens: tokenCapArb, usage: fc.boolean() },
      { requiredKeys: ['t', 'stream'] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        t: fc.constant('run' as const),
        sync: fc.boolean(),
        sim: fc.record({ fail: fc.constantFrom<boolean | string>(true, false, 'boom'), crash: fc.boolean() }, { requiredKeys: [] }),
        maxTokens: tokenCapArb,
        wait: fc.constantFrom(1_000, 2_000, 5_000),
      },
      { requiredKeys: ['t', 'sync'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('status' as const), pick: pickArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('status-sync' as const), pick: pickArb, wait: fc.constantFrom(1_000, 2_000) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constantFrom('cancel' as const, 'retry' as const), pick: pickArb }) },
  { weight: 1, arbitrary: fc.constantFrom({ t: 'purge' as const }, { t: 'health' as const }) },
  { weight: 7, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: llmAdvanceArb }) },
);

export const tokenModelCaseArb: fc.Arbitrary<RefCase> = fc.record({ config: llmConfigArb, cmds: fc.array(llmCmdArb, { minLength: 10, maxLength: 40 }) });
