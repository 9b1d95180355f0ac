/** Turnaround in the result is what the job outcomes (RunOptions.onJob) of the same run say. */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import type { JobOutcome } from '../../src/load/record/recorder.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { encode, newHistogram, record } from '../../src/report/histogram.js';
import { evaluateThresholds } from '../../src/report/thresholds.js';

const sc = scenarioSchema.parse({
  name: 'tt',
  durationMs: 60_000,
  seed: 5,
  endpoint: { workersMax: 3, jobDurationMs: { dist: 'exponential', meanMs: 700 } },
  traffic: [
    {
      name: 'poll',
      arrival: { process: 'poisson', ratePerSec: 3 },
      client: { behaviour: 'run-poll', poll: { baseMs: 250, factor: 1.5, maxMs: 2000, jitter: 0.2 } },
    },
    { name: 'sync', arrival: { process: 'poisson', ratePerSec: 1 }, client: { behaviour: 'runsync', waitMs: 2000 } },
  ],
});

describe('job times per flow', () => {
  test('turnaround, queue delay and execution equal those computed from onJob outcomes', async () => {
    const seen: JobOutcome[] = [];
    const r = await runScenario(sc, { onJob: (j) => seen.push(j) });
    for (const flow of ['poll', 'sync']) {
      const mine = seen.filter((j) => j.flow === flow);
      expect(mine.length).toBeGreaterThan(20);
      const h = (f: (j: JobOutcome) => number | undefined) => {
        const x = newHistogram();
        for (const j of mine) if (f(j) !== undefined) record(x, f(j)!);
        return encode(x);
      };
      const jobs = r.flows[flow]!.jobs!;
      expect(jobs.turnaroundMs).toEqual(h((j) => j.turnaroundMs));
      expect(jobs.queueDelayMs).toEqual(h((j) => j.delayTimeMs));
      expect(jobs.executionMs).toEqual(h((j) => j.executionTimeMs));
      const [p95] = evaluateThresholds(r, [`turnaround_p95_ms{flow=${flow}} >= 0`]);
      expect(p95!.value).toBe(jobs.turnaroundMs.summary.p95);
    }
    // Turnaround starts at the intended submission: never shorter than queue delay + execution.
    for (const j of seen) expect(j.turnaroundMs).toBeGreaterThanOrEqual((j.delayTimeMs ?? 0) + (j.executionTimeMs ?? 0) - 1);
    // Per-window histograms add up to the whole run.
    const w = r.windows!;
    expect(w.windowMs).toBe(10_000);
    const [whole, windowed] = evaluateThresholds(r, ['p99_ms{run} >= 0', 'p99_ms{run} >= 0 every 600s']);
    expect(windowed!.value).toBe(whole!.value);
  });
});
