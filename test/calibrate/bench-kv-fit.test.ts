/**
 * `loadlab calibrate` and the KV cache, round trip: sweeps made by the simulator with a known
 * `kvCacheTokens` (test/helpers/bench-files.ts). Where the sweep reaches the cache's limit (about
 * 10 requests of 512 + 128 tokens fit, the sweep goes to 32 in flight) the size comes back within
 * 10 %; where it never does, the fit says so and has no cache. Then a plan of the calibrated
 * scenario that recommends more requests per worker than the sweep measured, past the cache, says
 * so on stdout and in plan.md.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { type BenchCalibration, calibrateBench } from '../../src/calibrate/bench/bench-calibration.js';
import { type BenchRun, parseBenchFile } from '../../src/calibrate/bench/bench-file.js';
import { renderBenchMarkdown } from '../../src/calibrate/bench/render-bench-md.js';
import type { ScenarioInput } from '../../src/load/scenario/schema.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { combinations, parseGrid, type GridAxis } from '../../src/plan/grid.js';
import { inlineRunner } from '../../src/plan/inline-runner.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { buildPlan } from '../../src/plan/plan-result.js';
import { renderPlanHtml } from '../../src/plan/render-plan-html.js';
import { renderPlanMarkdown } from '../../src/plan/render-plan-md.js';
import { fitRangeOf } from '../../src/plan/extrapolation.js';
import { slosOf, type Slos } from '../../src/plan/slo.js';
import { sweep as planSweep } from '../../src/plan/sweep.js';
import { recommendationLines } from '../../src/cli/commands/plan-write.js';
import { benchFileFromSim } from '../helpers/bench-files.js';

const TRUTH = { decodeMs: 10, perSequenceMs: 1, prefillMsPerToken: 0.1, overheadMs: 20, maxNumBatchedTokens: 2048 };
/** About 10 requests of 512 + 128 tokens (each holds 512 + 64 on average): 5 760 tokens. */
const KV = 5760;

async function sweep(kvCacheTokens: number): Promise<BenchRun[]> {
  const runs: BenchRun[] = [];
  for (const users of [4, 16, 32]) {
    const json = await benchFileFromSim({
      engine: { ...TRUTH, kvCacheTokens },
      users,
      promptTokens: 512,
      outputTokens: 128,
      maxTokens: 128,
      durationMs: 120_000,
      workerConcurrency: 32,
    });
    const p = parseBenchFile(`c${users}.json`, JSON.stringify(json));
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    runs.push(p.run);
  }
  return runs;
}

describe('calibrate fits the KV cache from a sweep that reached it', () => {
  let fit: { calibration: BenchCalibration; scenario: ScenarioInput };
  beforeAll(async () => {
    fit = await calibrateBench(await sweep(KV));
    // A cache-filling sweep's joint fit takes 10–20 s alone, several times that beside the rest of the suite.
  }, 300_000);

  test('the size comes back within 10 %, and the predictions at the limit hold', () => {
    const c = fit.calibration;
    expect(c.fit.kvCache.status).toBe('fitted');
    expect(Math.abs(c.endpoint.engine.kvCacheTokens! / KV - 1)).toBeLessThanOrEqual(0.1);
    for (const l of c.levels) {
      expect(Math.abs(l.figures.outputTokensPerS.error!), `C = ${l.concurrency} tokens/s`).toBeLessThanOrEqual(0.1);
      expect(Math.abs(l.figures.ttftP50.error!), `C = ${l.concurrency} TTFT`).toBeLessThanOrEqual(0.35);
    }
    expect(renderBenchMarkdown(c)).toContain(`| kvCacheTokens | ${c.endpoint.engine.kvCacheTokens} |`);
    expect(fit.scenario.plan?.calibratedUpTo).toEqual({ concurrency: 32, kvCache: 'fitted' });
  });

  test('a plan recommending more requests per worker than the sweep had, past the cache, says so', async () => {
    const input = { ...fit.scenario, durationMs: 20_000, traffic: fit.scenario.traffic!.map((f) => ({ ...f, arrival: { process: 'closed', users: 48 } })) };
    const p = parseScenario(input, 'calibrated.yaml');
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    // Any TTFT will do: the cheapest point is one worker holding all 48.
    const slos = ['ttft_p50_ms{flow=chat} < 600000'];
    const lines = combinations(parseGrid(['workerConcurrency=48']) as GridAxis[]);
    const outcome = await planSweep(inlineRunner({ scenario: p.scenario, slos, workersMin: 'max' }), {
      workers: [1],
      seeds: [1],
      lines,
      exhaustive: true,
      concurrency: 1,
    });
    const plan = buildPlan(
      {
        scenario: { name: 'kv', durationMs: 20_000 },
        slos: slosOf(p.scenario, slos) as Slos,
        range: [1],
        grid: true,
        workersMin: 'max',
        seeds: [1],
        exhaustive: true,
        mmc: mmcInputs(p.scenario),
        fitRange: fitRangeOf(p.scenario),
      },
      outcome,
    );
    expect(plan.recommendation.workersMax).toBe(1);
    const flags = plan.recommendation.flags ?? [];
    expect(flags, JSON.stringify(flags)).toHaveLength(2);
    expect(flags.some((f) => f.includes('beyond the 32 in flight the calibration measured'))).toBe(true);
    // A request holds its 512-token prompt and 128-token answer at its end.
    const room = Math.floor(fit.calibration.endpoint.engine.kvCacheTokens! / 640);
    expect(flags.some((f) => f.startsWith(`past the KV cache: about ${room} of the 48 requests`))).toBe(true);
    expect(recommendationLines(plan).filter((l) => l.startsWith('  WARNING: '))).toHaveLength(2);
    expect(renderPlanMarkdown(plan, p.scenario)).toContain('**Check before you rely on it:**');
    expect(renderPlanHtml(plan, p.scenario)).toMatch(/<li>extrapolated: its workers hold 48 requests at once/);
  }, 60_000);
});

test('a sweep that never reaches the cache: "not reached", no cache in the engine, and the note says so', async () => {
  const { calibration: c, scenario } = await calibrateBench(await sweep(100_000));
  expect(c.fit.kvCache).toEqual({ status: 'not-reached', maxConcurrency: 32 });
  expect(c.endpoint.engine.kvCacheTokens).toBeUndefined();
  expect(c.fit.notes.join('\n')).toContain("never reached the KV cache's limit");
  expect(scenario.plan?.calibratedUpTo).toEqual({ concurrency: 32, kvCache: 'not-reached' });
}, 60_000);
