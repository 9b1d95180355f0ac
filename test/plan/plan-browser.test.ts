/**
 * plan.html in a real browser: `loadlab plan` (the built CLI, --jobs 1) on
 * test/fixtures/plan-small.yaml, once along workersMax and once with a grid; Chromium opens each
 * plan.html via file:// and checks what a reader sees — no console or page errors, no network,
 * every chart drawn by uPlot (data in every series, coloured pixels in the plot) against
 * workersMax (or cost, for the Pareto front), the tables below; and on test/fixtures/plan-engine.yaml
 * (an LLM endpoint) no chart without data. Plans and screenshots land in a
 * temp directory (printed). Chromium: test/helpers/chromium.ts (skipped without it, unless CI=true).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumExecutable, expectAllDrawn, launchChromium, MISSING, openCharts } from '../helpers/chromium.js';
import { plan } from './plan-cli.js';

const executable = chromiumExecutable();
const out = mkdtempSync(join(tmpdir(), 'loadlab-plan-browser-'));
let browser: Browser | undefined;

beforeAll(async () => {
  if (!executable) return;
  console.log(`plan-browser: plans and screenshots in ${out}`);
  browser = await launchChromium(executable);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const ARGS = [
  'test/fixtures/plan-small.yaml',
  '--workers-max',
  '1..4',
  '--seeds',
  '2',
  '--gpu',
  'A100',
  '--exhaustive',
  '--jobs',
  '1',
  '--slo',
  'turnaround_p95_ms < 20000',
  '--slo',
  'queue_delay_mean_ms < 1500',
];

/** A batching LLM endpoint (openai-chat flow: no queue delay) over workersMax × workerConcurrency. */
const LLM_ARGS = [
  'test/fixtures/plan-engine.yaml',
  '--workers-max',
  '1..3',
  '--seeds',
  '1',
  '--exhaustive',
  '--jobs',
  '1',
  '--grid',
  'workerConcurrency=1,4,16',
];

/** Runs the plan, opens its plan.html, reads the charts and saves a screenshot beside it. */
async function openPlan(name: string, args: string[]) {
  const dir = join(out, name);
  const r = plan([...args, '--out', dir]);
  expect(r.status, r.stderr).toBe(0);
  return openCharts(browser!, join(dir, 'plan.html'), join(dir, 'plan.png'));
}

describe('plan.html in Chromium', () => {
  test('along workersMax: each SLO with its seeds, mean, SLO line (and Erlang C), the cost; no errors', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await openPlan('workers', ARGS);
    expect(errors).toEqual([]);
    expect(charts.map((c) => c.id)).toEqual(['slo-1', 'slo-2', 'cost-per-hour', 'cost-per-1000-jobs']);
    expectAllDrawn(charts, []);
    expect(await page.evaluate(`window.loadlabCharts['slo-2'].series.map((s) => s.label)`)).toEqual([
      'workersMax',
      'seed 3',
      'seed 4',
      'mean over seeds',
      'SLO < 1500',
      'Erlang C (M/M/c)',
    ]);
    // Hovering shows the workersMax under the cursor and each series' value there.
    await page.hover('#chart-slo-1 .u-over', { position: { x: 500, y: 100 }, timeout: 10_000 });
    const legend = await page.$$eval('#chart-slo-1 .u-legend .u-value', (cells) => cells.map((c) => c.textContent));
    expect(legend[0]).toMatch(/^[1-4]$/);
    expect(legend.slice(1).every((v) => /^\d[\d .]*$/.test(v ?? ''))).toBe(true);
    // The charts come before the tables.
    expect(
      await page.evaluate(
        `document.querySelector('#charts').compareDocumentPosition(document.querySelector('#tables table')) & Node.DOCUMENT_POSITION_FOLLOWING`,
      ),
    ).toBeTruthy();
    await page.close();
  });

  test('with a grid: a line per combination and the cost-vs-SLO Pareto front', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await openPlan('grid', [...ARGS, '--grid', 'workersMin=0,1']);
    expect(errors).toEqual([]);
    expectAllDrawn(charts, ['slo-1', 'slo-2', 'cost-per-hour', 'pareto-1', 'pareto-2']);
    expect(await page.evaluate(`window.loadlabCharts['pareto-1'].series.map((s) => s.label)`)).toEqual([
      'cost per hour ($, mean over seeds)',
      'every point',
      'Pareto front',
      'recommendation',
      'SLO < 20000',
    ]);
    await page.close();
  });

  test('an LLM endpoint: no empty chart (a line says why there is no queue delay), lists as bullets', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await openPlan('llm', LLM_ARGS);
    expect(errors).toEqual([]);
    expect(charts.map((c) => c.id)).not.toContain('queue-delay');
    expectAllDrawn(charts, ['slo-1', 'slo-2', 'worker-seconds', 'pareto-1', 'pareto-2']);
    expect(await page.textContent('#note-queue-delay')).toContain('No run of the plan measured a queue delay');
    // plan.md's Pareto front list, as list items.
    expect(await page.$$eval('#tables li', (items) => items.map((li) => li.textContent))).toContainEqual(
      expect.stringMatching(/^workersMax 1, workerConcurrency=16: /),
    );
    await page.close();
  });
});
