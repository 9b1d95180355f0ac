/**
 * `loadlab calibrate` on runs against a batching LLM endpoint: the simulator with known engine
 * figures and workerConcurrency, seen as if at a URL (test/helpers/as-if-at-url.ts: the run reads
 * /health and keeps RunResult.observed, in virtual time), driven by streamed chat requests from
 * closed flows whose users step up (two prompt lengths). Calibrate must find the figures again,
 * write them into calibrated.yaml, and say what it cannot trust when the run could not show it.
 */
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { calibrate, type CalibrationWithCurves } from '../../src/calibrate/calibration.js';
import { calibratedScenario } from '../../src/calibrate/calibrated-scenario.js';
import { renderCalibrationHtml } from '../../src/calibrate/render-calibration-html.js';
import { renderCalibrationMarkdown } from '../../src/calibrate/render-calibration-md.js';
import { textOfTokens } from '../../src/contract/prompt-tokens.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { scenarioSchema, type ScenarioInput } from '../../src/load/scenario/schema.js';
import type { ObservedEndpoint, RunResult } from '../../src/report/run-result.js';
import { asIfAtUrl } from '../helpers/as-if-at-url.js';
import { expectNoEmptyChartNorDashLines } from '../helpers/page-html.js';
import { inlineRunner } from '../../src/plan/inline-runner.js';
import { mmcInputs } from '../../src/plan/mmc-reference.js';
import { buildPlan } from '../../src/plan/plan-result.js';
import { slosOf, type Slos } from '../../src/plan/slo.js';
import { sweep as planSweep } from '../../src/plan/sweep.js';

const ENGINE = { decodeMs: 8, perSequenceMs: 0.5, prefillMsPerToken: 0.05, overheadMs: 12, maxNumSeqs: 64 };
const CONCURRENCY = 6;

/** 2 warm workers of 6 jobs; two closed flows add a user each every 6 s up to 8 each: 2 to 16 streams in flight, 12 fill the endpoint. */
function scenario(o: { users?: number; prompts?: [number, number] } = {}): ScenarioInput {
  const [a, b] = o.prompts ?? [8, 400];
  const flow = (name: string, promptTokens: number) => ({
    name,
    arrival: { process: 'closed' as const, users: o.users ?? 8, rampUpMs: 48_000 },
    client: { behaviour: 'openai-chat' as const, stream: true, maxTokens: 1024, prompt: textOfTokens(promptTokens) },
  });
  return {
    name: 'batched',
    seed: 3,
    durationMs: 60_000,
    drainMs: 30_000,
    endpoint: {
      id: 'llm',
      workersMin: 2,
      workersMax: 2,
      workerConcurrency: CONCURRENCY,
      llm: { engine: ENGINE, outputTokens: { dist: 'lognormal', medianMs: 60, p95Ms: 150 } },
    },
    traffic: [flow('short', a), flow('long', b)],
  };
}

async function fitOf(input: ScenarioInput, healthEveryMs = 100): Promise<{ r: RunResult & { observed: ObservedEndpoint }; c: CalibrationWithCurves }> {
  const r = (await runScenario(scenarioSchema.parse(input), { target: asIfAtUrl, healthEveryMs })) as RunResult & { observed: ObservedEndpoint };
  return { r, c: calibrate(r) };
}

const near = (got: number | undefined, want: number, tol: number) => expect(Math.abs(got! / want - 1), `${got} vs ${want}`).toBeLessThanOrEqual(tol);

describe('a run that filled a batching endpoint at several concurrency levels, /health read', async () => {
  const input = scenario();
  const { r, c } = await fitOf(input);
  const k = c.calibration;

  it('keeps every completed stream with its prompt tokens and batch', () => {
    const s = r.observed.streams!;
    expect(s.count).toBe(r.flows.short!.stream!.requests + r.flows.long!.stream!.requests);
    expect(s.rows.length).toBe(s.count);
    const prompt = s.columns.indexOf('promptTokens');
    expect(new Set(s.rows.map((row) => row[prompt]))).toEqual(new Set([8, 400]));
  });

  it('recovers the engine within 5 %, all trusted; the first tokens read from streams alone on their worker', () => {
    const e = k.llm!.engine!;
    near(e.decodeMs.value, ENGINE.decodeMs, 0.05);
    near(e.perSequenceMs.value, ENGINE.perSequenceMs, 0.05);
    near(e.prefillMsPerToken.value, ENGINE.prefillMsPerToken, 0.05);
    near(e.overheadMs.value, ENGINE.overheadMs, 0.05);
    expect(e.ttft).toMatchObject({ alone: true, promptMin: 8, promptMax: 400 });
    for (const f of [e.decodeMs, e.perSequenceMs, e.prefillMsPerToken, e.overheadMs]) expect(f, JSON.stringify(f)).toMatchObject({ trusted: true });
    expect(k.llm!.batchFrom).toBe('health');
    expect(e.itl).toMatchObject({ perWorkerMin: 1, perWorkerMax: CONCURRENCY });
  });

  it('workerConcurrency exactly, the endpoint seen full; outputTokens a lognormal near the truth', () => {
    expect(k.workerConcurrency).toMatchObject({ value: CONCURRENCY, reached: true });
    expect(k.llm!.outputTokens).toMatchObject({ model: 'lognormal', capped: 0, trusted: true });
    near(k.llm!.outputTokens.p50, 60, 0.1);
    near(k.llm!.outputTokens.p95, 150, 0.15);
  });

  it('calibrated.yaml: workerConcurrency and llm {engine, outputTokens}, a valid scenario', () => {
    const yaml = calibratedScenario(stringify(input), k, 'reports/x');
    expect(yaml).toContain('workerConcurrency, llm.engine, llm.outputTokens too');
    expect(yaml).toMatch(/engine: \{ decodeMs: [\d.]+, perSequenceMs: [\d.]+, prefillMsPerToken: [\d.]+, overheadMs: [\d.]+, maxNumSeqs: 64 \}/);
    expect(yaml).toMatch(/outputTokens: \{ dist: lognormal, medianMs: [\d.]+, p95Ms: [\d.]+ \}/);
    const loaded = parseScenario(parse(yaml), 'calibrated.yaml');
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    if (loaded.ok) expect(loaded.scenario.endpoint.workerConcurrency).toBe(CONCURRENCY);
    // A scenario that timed each job alone (ttftMs, interTokenMs) gets the engine instead.
    const alone = { ...input, endpoint: { ...input.endpoint, llm: { ttftMs: 300, interTokenMs: 20, outputTokens: 50 } } };
    const replaced = parse(calibratedScenario(stringify(alone), k, 'reports/x'));
    expect(Object.keys(replaced.endpoint.llm)).toEqual(['engine', 'outputTokens']);
    expect(parseScenario(replaced, 'calibrated.yaml').ok).toBe(true);
  });

  it("plan on calibrated.yaml picks the hidden endpoint's workersMax within one worker", async () => {
    // The same production traffic (25 chats/s) on the true and on the fitted worker, warm workers 1..5.
    const planOf = async (endpoint: ScenarioInput['endpoint']) => {
      const sc = scenarioSchema.parse({
        name: 'hidden',
        seed: 4,
        durationMs: 60_000,
        drainMs: 30_000,
        endpoint: { ...endpoint, workersMin: 0, workersMax: 5 },
        traffic: [
          {
            name: 'chat',
            arrival: { process: 'poisson', ratePerSec: 25 },
            client: { behaviour: 'openai-chat', stream: true, maxTokens: 1024, prompt: textOfTokens(200) },
          },
        ],
      });
      const slos = ['ttft_p95_ms{flow=chat} < 400', 'tpot_p95_ms{flow=chat} < 11'];
      const outcome = await planSweep(inlineRunner({ scenario: sc, slos, workersMin: 'max' }), {
        workers: [1, 2, 3, 4, 5],
        seeds: [1],
        lines: [{}],
        exhaustive: true,
        concurrency: 1,
      });
      const plan = buildPlan(
        {
          scenario: { name: 'hidden', durationMs: 60_000 },
          slos: slosOf(sc, slos) as Slos,
          range: [1, 2, 3, 4, 5],
          grid: false,
          workersMin: 'max',
          seeds: [1],
          exhaustive: true,
          mmc: mmcInputs(sc),
        },
        outcome,
      );
      return plan.recommendation.workersMax;
    };
    const fitted = parse(calibratedScenario(stringify(input), k, 'reports/x')).endpoint;
    const truth = await planOf(input.endpoint);
    expect(truth).toBeGreaterThan(1);
    expect(Math.abs((await planOf(fitted))! - truth!)).toBeLessThanOrEqual(1);
  });

  it('calibration.md and .html show the figures and the observed against the fitted', () => {
    const md = renderCalibrationMarkdown(c);
    expect(md).toContain(`| workerConcurrency | ${CONCURRENCY} |`);
    expect(md).toMatch(/\| llm\.engine\.perSequenceMs \| [\d.]+ ms ± [\d.]+ \| \d+ streams at 1–6 sequences per worker \|/);
    expect(md).toContain('## llm.engine: inter-token latency against sequences per worker');
    expect(md).toContain('## llm.outputTokens: observed against fitted');
    const html = renderCalibrationHtml(c);
    expect(html).toContain('id="chart-llm-itl"');
    // What gathers each quantity: a bulleted list, not lines of text starting with "- ".
    expect(html).toMatch(/<ul><li><strong>jobDurationMs<\/strong>: every COMPLETED job's <code>executionTime<\/code>/);
    expect(html).toContain('<li><strong>llm.engine</strong>: ');
    expectNoEmptyChartNorDashLines(html);
  });
});

describe('what a run could not show', () => {
  it('never full: workerConcurrency is a lower bound, and calibrated.yaml keeps the higher value of the scenario', async () => {
    // Up to 4 + 4 streams on 2 workers of 6: at most 4 on one.
    const input = scenario({ users: 4 });
    const { c } = await fitOf(input);
    const wc = c.calibration.workerConcurrency!;
    expect(wc.reached).toBe(false);
    expect(wc.value).toBeLessThan(CONCURRENCY);
    expect(wc.note).toContain('a lower bound');
    const yaml = calibratedScenario(stringify(input), c.calibration, 'reports/x');
    expect(parse(yaml).endpoint.workerConcurrency).toBe(CONCURRENCY);
    expect(yaml).toContain('workerConcurrency (a lower bound: the endpoint was never seen full)');
  });

  it('one prompt length: prefillMsPerToken cannot be split off; overheadMs carries the prompt, both marked', async () => {
    const { c } = await fitOf(scenario({ prompts: [200, 200] }));
    const e = c.calibration.llm!.engine!;
    expect(e.prefillMsPerToken).toMatchObject({ value: 0, trusted: false });
    expect(e.prefillMsPerToken.note).toContain('send prompts of several lengths');
    // overheadMs + 200 × prefillMsPerToken: the TTFT of these prompts stays right.
    near(e.overheadMs.value, ENGINE.overheadMs + 200 * ENGINE.prefillMsPerToken, 0.15);
    expect(e.overheadMs.trusted).toBe(false);
    near(e.decodeMs.value, ENGINE.decodeMs, 0.1);
  });

  it("no /health: the batch is the run's own streams in flight, the engine's figures are marked, workerConcurrency unknown", async () => {
    const { c } = await fitOf(scenario(), 0);
    const k = c.calibration;
    expect(k.llm!.batchFrom).toBe('run');
    expect(k.workerConcurrency).toMatchObject({ reached: false });
    expect(k.workerConcurrency!.value).toBeUndefined();
    for (const f of Object.values(k.llm!.engine!).slice(0, 4)) expect(f).toMatchObject({ trusted: false });
    expect(k.llm!.engine!.decodeMs.note).toContain('run with --health-every');
  });

  it('rows with missing or broken figures are passed over, not a crash', async () => {
    const { r } = await fitOf(scenario({ users: 1 }));
    const s = r.observed.streams!;
    const broken: RunResult & { observed: ObservedEndpoint } = {
      ...r,
      observed: { ...r.observed, streams: { ...s, rows: [...s.rows.slice(0, 30), [1, Number.NaN], [], ...s.rows.slice(30)] } },
    };
    expect(calibrate(broken).calibration.llm!.kept).toBe(s.rows.length);
    // Chunks that came in one piece (a buffering proxy): left out of the engine's fit, counted.
    const itl = s.columns.indexOf('itlP50Ms');
    const bunched = s.rows.map((row, i) => (i % 5 === 0 ? row.map((v, j) => (j === itl ? 0.01 : v)) : row));
    const fit = calibrate({ ...r, observed: { ...r.observed, streams: { ...s, rows: bunched } } });
    expect(fit.calibration.llm!.engine!.bunched).toBe(Math.ceil(s.rows.length / 5));
    near(fit.calibration.llm!.engine!.decodeMs.value, ENGINE.decodeMs, 0.1);
    expect(renderCalibrationMarkdown(fit)).toContain('streams arrived in one piece');
    const none = calibrate({ ...r, observed: { ...r.observed, streams: { count: 3, columns: ['other'], rows: [[1], [2], [3]] } } }).calibration;
    expect(none.llm).toBeUndefined();
  });

  it('a report without streams (an older run, or /run jobs only) calibrates as before: no llm, no workerConcurrency of 1 written', async () => {
    const input: ScenarioInput = {
      name: 'plain',
      durationMs: 20_000,
      endpoint: { id: 'ep', workersMin: 1, workersMax: 2, jobDurationMs: 200 },
      traffic: [{ name: 'jobs', arrival: { process: 'poisson', ratePerSec: 4 }, client: { behaviour: 'runsync' } }],
    };
    const { r, c } = await fitOf(input);
    expect(r.observed.streams).toBeUndefined();
    expect(c.calibration.llm).toBeUndefined();
    expect(c.calibration.workerConcurrency).toMatchObject({ value: 1 });
    const yaml = calibratedScenario(stringify(input), c.calibration, 'reports/x');
    expect(Object.keys(parse(yaml).endpoint).sort()).toEqual(['id', 'jobDurationMs', 'workersMax', 'workersMin']);
    expect(renderCalibrationMarkdown(c)).not.toContain('llm.engine');
    // calibration.html of a run of /run jobs: its notes and what gathers each quantity as list items.
    const html = renderCalibrationHtml(c);
    expect(html).toMatch(/<ul><li><strong>coldStartMs<\/strong>: [^<]/);
    expect(html).toContain('<li><strong>workersMax</strong>: the most workers /health counted at once');
    expectNoEmptyChartNorDashLines(html);
  });
});
