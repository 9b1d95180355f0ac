/**
 * `loadlab calibrate` from vllm bench serve files, round trip: files made by the simulator itself
 * with a known engine (test/helpers/bench-files.ts) at C = 1, 4 and 16 are fitted again, the
 * parameters must come back within a few % and the predicted medians within 5–10 %; then the
 * calibrated.yaml written from the fit runs with `loadlab run`, in process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type BenchCalibration, calibrateBench } from '../../src/calibrate/bench/bench-calibration.js';
import { type BenchRun, parseBenchFile } from '../../src/calibrate/bench/bench-file.js';
import type { LevelFigures } from '../../src/calibrate/bench/bench-metrics.js';
import { benchScenarioYaml } from '../../src/calibrate/bench/bench-scenario.js';
import { renderBenchHtml } from '../../src/calibrate/bench/render-bench-html.js';
import { esc } from '../../src/report/html/escape.js';
import type { TokenCount } from '../../src/calibrate/bench/bench-workload.js';
import { runCommand } from '../../src/cli/commands/run.js';
import type { RunResult } from '../../src/report/run-result.js';
import { benchFileFromSim } from '../helpers/bench-files.js';
import { drawnCharts, expectNoEmptyChartNorDashLines } from '../helpers/page-html.js';
import type { EngineConfigInput } from '../../src/contract/llm-config.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { combinations, parseGrid, type GridAxis } from '../../src/plan/grid.js';
import { inlineRunner } from '../../src/plan/inline-runner.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { buildPlan } from '../../src/plan/plan-result.js';
import { slosOf, type Slos } from '../../src/plan/slo.js';
import { sweep as planSweep } from '../../src/plan/sweep.js';

/** The L4 / 0.5 B shape, with vLLM's prefill budget on such a GPU (calibrate's default). */
const TRUTH = { decodeMs: 5.1, perSequenceMs: 0.065, prefillMsPerToken: 0.012, overheadMs: 15, maxNumBatchedTokens: 2048 };
const dir = mkdtempSync(join(tmpdir(), 'loadlab-bench-fit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sweep(promptTokens: TokenCount, outputTokens: TokenCount, maxTokens: number, detailed: boolean): Promise<BenchRun[]> {
  const runs: BenchRun[] = [];
  for (const users of [1, 4, 16]) {
    // About 150 requests at C = 1 and 600 at C = 16 (a request takes ~0.7 to 0.9 s).
    const json = await benchFileFromSim({
      engine: TRUTH,
      users,
      promptTokens,
      outputTokens,
      maxTokens,
      durationMs: 100_000 / Math.sqrt(users),
      detailed,
      workerConcurrency: 16,
    });
    const p = parseBenchFile(`c${users}.json`, JSON.stringify(json));
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    runs.push(p.run);
  }
  return runs;
}

const near = (got: number, want: number, tol: number, what: string) => expect(Math.abs(got / want - 1), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(tol);

function expectPredicted(c: BenchCalibration, tol: Partial<Record<keyof LevelFigures, number>>): void {
  for (const l of c.levels)
    for (const [k, t] of Object.entries(tol)) {
      const f = l.figures[k as keyof LevelFigures];
      expect(Math.abs(f.error!), `C = ${l.concurrency} ${k}: ${f.measured} → ${f.predicted}`).toBeLessThanOrEqual(t);
    }
}

describe('round trip: bench files from a known engine', () => {
  let summaries: Awaited<ReturnType<typeof calibrateBench>>;

  test('summaries only (fixed lengths): every parameter back within 3 %, medians within 5 %', async () => {
    summaries = await calibrateBench(await sweep(256, 128, 128, false));
    const { engine, workerConcurrency } = summaries.calibration.endpoint;
    for (const k of ['decodeMs', 'perSequenceMs', 'prefillMsPerToken', 'overheadMs'] as const) near(engine[k], TRUTH[k], 0.03, k);
    expect(engine).toMatchObject({ maxNumSeqs: 256, maxNumBatchedTokens: 2048 });
    expect(workerConcurrency).toBe(16);
    expect(summaries.calibration.fit.prefillFrom).toBe('concurrency');
    expect(summaries.calibration.endpoint).toMatchObject({ outputTokens: 128, promptTokens: 256, maxTokens: 128 });
    expectPredicted(summaries.calibration, { ttftP50: 0.05, itlP50: 0.05, tpotP50: 0.05, e2elP50: 0.05, outputTokensPerS: 0.05 });
  });

  test("calibration.html: the fit's notes and the limits are bulleted lists; every chart has its measured points", () => {
    const html = renderBenchHtml(summaries.calibration);
    expect(summaries.calibration.fit.notes.length).toBeGreaterThan(0);
    expect(html).toContain(`<ul>${summaries.calibration.fit.notes.map((n) => `<li>${esc(n)}.</li>`).join('')}</ul>`);
    expect(html).toContain('<li>The errors above are on the files the fit saw.');
    expect(drawnCharts(html).map((c) => c.id)).toEqual(['itlP50', 'ttftP50', 'e2elP50', 'outputTokensPerS']);
    expectNoEmptyChartNorDashLines(html);
  });

  test('detailed arrays (prompts and answers of many lengths): the prefill from TTFT against prompt length, medians within 10 %', async () => {
    const { calibration: c } = await calibrateBench(
      await sweep({ dist: 'uniform', minMs: 64, maxMs: 512 }, { dist: 'uniform', minMs: 64, maxMs: 192 }, 192, true),
    );
    const e = c.endpoint.engine;
    expect(c.fit.prefillFrom).toBe('input-length');
    for (const k of ['decodeMs', 'perSequenceMs', 'prefillMsPerToken'] as const) near(e[k], TRUTH[k], 0.03, k);
    // Its TTFT medians are of prompts drawn at random, in the files and in the simulated runs.
    near(e.overheadMs, TRUTH.overheadMs, 0.08, 'overheadMs');
    expect(c.endpoint.outputTokens).toMatchObject({ dist: 'empirical' });
    expect(c.endpoint.maxTokens).toBe(192);
    expectPredicted(c, { ttftP50: 0.1, itlP50: 0.05, tpotP50: 0.05, e2elP50: 0.1, outputTokensPerS: 0.1 });
  });

  test('calibrated.yaml runs with loadlab run (in process): a closed loop of 16 streams at the predicted ITL', async () => {
    const file = join(dir, 'calibrated.yaml');
    writeFileSync(file, benchScenarioYaml(summaries.scenario, ['c1.json', 'c4.json', 'c16.json'], [1, 4, 16]));
    const out = join(dir, 'run');
    expect(await runCommand({ scenario: file, out })).toBe(0);
    const r = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    const flow = r.flows.chat!;
    expect(flow).toMatchObject({ arrival: 'closed', users: 16, behaviour: 'openai-chat' });
    expect(Object.keys(flow.outcomes)).toEqual(['COMPLETED']);
    expect(flow.stream!.tokens).toBe(128 * flow.stream!.requests);
    // The report keeps stream times at 0.01 ms: the C = 16 prediction (about 6.08 ms) as it is.
    const c16 = summaries.calibration.levels.find((l) => l.concurrency === 16)!.figures;
    expect(flow.stream!.itlMs.summary.p50).toBeCloseTo(c16.itlP50.predicted!, 1);
    // A round's 16 prompts take two prefill steps of 2048 tokens: half the first tokens come after
    // the first, half after the second. The prediction's median (numpy's, as vllm bench serve
    // computes it) lies between the two; the report's HDR p50 is the lower one.
    const ttft = flow.stream!.ttftMs.summary;
    expect(ttft.p50).toBeLessThan(c16.ttftP50.predicted!);
    expect(ttft.max).toBeGreaterThan(c16.ttftP50.predicted!);
  });

  test('plan on the fitted worker picks the configuration plan picks on the true one', async () => {
    // 30 chats/s of 128 tokens with TTFT and TPOT SLOs, warm workers: workersMax 1..3 × workerConcurrency 4, 8, 16.
    const planOf = async (engine: EngineConfigInput) => {
      const p = parseScenario(
        {
          name: 'fit-vs-truth',
          seed: 3,
          durationMs: 60_000,
          drainMs: 20_000,
          endpoint: { id: 'llm', workersMax: 3, limits: { enabled: false }, llm: { engine, outputTokens: 128 } },
          traffic: [
            {
              name: 'chat',
              arrival: { process: 'poisson', ratePerSec: 30 },
              client: { behaviour: 'openai-chat', stream: true, maxTokens: 128, promptTokens: 256 },
            },
          ],
        },
        'fit-vs-truth.yaml',
      );
      if (!p.ok) throw new Error(JSON.stringify(p.issues));
      const slos = ['ttft_p95_ms{flow=chat} < 150', 'tpot_p95_ms{flow=chat} < 6'];
      const lines = combinations(parseGrid(['workerConcurrency=4,8,16']) as GridAxis[]);
      const outcome = await planSweep(inlineRunner({ scenario: p.scenario, slos, workersMin: 'max' }), {
        workers: [1, 2, 3],
        seeds: [1],
        lines,
        exhaustive: true,
        concurrency: 1,
      });
      const plan = buildPlan(
        {
          scenario: { name: 'fit-vs-truth', durationMs: 60_000 },
          slos: slosOf(p.scenario, slos) as Slos,
          range: [1, 2, 3],
          grid: true,
          workersMin: 'max',
          seeds: [1],
          exhaustive: true,
          mmc: mmcInputs(p.scenario),
        },
        outcome,
      );
      return { workersMax: plan.recommendation.workersMax, knobs: plan.recommendation.knobs, meets: plan.rows.map((r) => r.meetsAll) };
    };
    const truth = await planOf(TRUTH);
    const fitted = await planOf(summaries.calibration.endpoint.engine);
    expect(truth.workersMax).not.toBeNull();
    expect(truth.meets.some((m) => !m)).toBe(true);
    expect(fitted).toEqual(truth);
  });
});
