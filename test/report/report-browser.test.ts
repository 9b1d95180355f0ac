/**
 * report.html in a real browser: Chromium (playwright-core driving the system's Chromium) opens
 * the reports of steady-mix, burst-rate-limit, a 2-hour diurnal run and the failing CI gate via
 * file:// and checks what a reader sees — no console or page errors, every chart drawn by uPlot
 * (data in every series, coloured pixels in the plot), the FAIL banner naming the failed
 * threshold. Screenshots land in a temp directory (printed).
 *
 * Chromium: test/helpers/chromium.ts ($CHROMIUM, else `chromium` or `chromium-browser` on PATH).
 * Without it the test is skipped, except under CI=true where its absence fails.
 *
 * The README's screenshot (docs/images/report.png) is re-made on request:
 *   UPDATE_SCREENSHOT=1 npx vitest run test/report/report-browser.test.ts
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { loadScenarioFile, parseScenario } from '../../src/load/scenario/loader.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { renderHtml } from '../../src/report/render-html.js';
import type { RunResult } from '../../src/report/run-result.js';
import { chromiumExecutable, expectAllDrawn, launchChromium, MISSING, openCharts, type ChartCheck } from '../helpers/chromium.js';

const repo = resolve(import.meta.dirname, '..', '..');
const executable = chromiumExecutable();

const out = mkdtempSync(join(tmpdir(), 'loadlab-report-browser-'));
let browser: Browser | undefined;

beforeAll(async () => {
  if (!executable) return;
  console.log(`report-browser: reports and screenshots in ${out}`);
  browser = await launchChromium(executable);
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

function scenarioFile(file: string): Scenario {
  const l = loadScenarioFile(join(repo, file));
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

/**
 * scenarios/diurnal-day.yaml shortened to 2 hours (the peak at 1 h) and to a fifth of its rate:
 * the same shape with 7 200 timeline windows, quick enough to run here.
 */
function diurnal2h(): Scenario {
  const raw = parseYaml(readFileSync(join(repo, 'scenarios', 'diurnal-day.yaml'), 'utf8')) as Record<string, any>;
  raw.name = 'diurnal-2h';
  raw.durationMs = 7_200_000;
  raw.traffic[0].arrival = { ...raw.traffic[0].arrival, meanPerSec: 20, peakAtMs: 3_600_000 };
  raw.thresholds = ['jobs_completed > 100000'];
  const l = parseScenario(raw, 'diurnal-2h');
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

async function open(name: string, sc: Scenario, edit: (r: RunResult) => void = () => {}): Promise<{ page: Page; charts: ChartCheck[]; errors: string[] }> {
  const r = await runScenario(sc);
  edit(r);
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'report.html');
  writeFileSync(file, renderHtml(r));
  return openCharts(browser!, file, join(dir, 'report.png'));
}

describe('report.html in Chromium', () => {
  test('steady-mix: every chart draws, no errors', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await open('steady-mix', scenarioFile('scenarios/steady-mix.yaml'));
    expect(errors).toEqual([]);
    expectAllDrawn(charts, ['requests', 'response-time', 'turnaround', 'jobs', 'endpoint']);
    expect(await page.textContent('#verdict')).toMatch(/^PASS/);
    // Hovering a chart shows the run time and each series' value there in the legend.
    await page.hover('#chart-requests .u-over', { position: { x: 300, y: 60 }, timeout: 30_000 });
    const legend = await page.$$eval('#chart-requests .u-legend .u-value', (cells) => cells.map((c) => c.textContent));
    expect(legend[0]).toMatch(/^0:0\d:\d0$/);
    expect(legend.slice(1).every((v) => /^\d[\d .]*$/.test(v ?? ''))).toBe(true);
    // No webhooks in steady-mix: a note, not an empty chart.
    expect(await page.textContent('#note-webhooks')).toMatch(/No webhooks in this run/);
    await page.close();
  });

  test('burst-rate-limit: the 429s stacked by cause', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await open('burst-rate-limit', scenarioFile('scenarios/burst-rate-limit.yaml'));
    expect(errors).toEqual([]);
    expectAllDrawn(charts, ['requests', 'limited', 'response-time', 'turnaround']);
    const legend = await page.evaluate(`window.loadlabCharts.limited.series.slice(1).map((s) => s.label)`);
    expect(legend).toContain('rate');
    if (process.env.UPDATE_SCREENSHOT === '1') {
      mkdirSync(join(repo, 'docs', 'images'), { recursive: true });
      await page.screenshot({ path: join(repo, 'docs', 'images', 'report.png'), clip: { x: 0, y: 0, width: 1200, height: 1500 }, fullPage: true });
    }
    await page.close();
  });

  test('a 2-hour diurnal run: 7 200 windows, every chart draws', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await open('diurnal-2h', diurnal2h());
    expect(errors).toEqual([]);
    expectAllDrawn(charts, ['requests', 'response-time', 'turnaround', 'jobs', 'endpoint']);
    for (const c of charts) expect(c.points).toBeLessThanOrEqual(2000);
    await page.close();
  });

  test('ci-gate-failing: the FAIL banner names the failed threshold', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await open('ci-gate-failing', scenarioFile('test/fixtures/ci-gate-failing.yaml'));
    expect(errors).toEqual([]);
    expectAllDrawn(charts, ['requests', 'response-time']);
    expect(await page.getAttribute('#verdict', 'class')).toContain('verdict-fail');
    const banner = await page.textContent('#verdict');
    expect(banner).toMatch(/^FAIL/);
    expect(banner).toContain('p99_ms{runsync} < 1000');
    expect(banner).toMatch(/measured \d+/);
    await page.close();
  });

  test('the endpoint over time: workers stacked by state under the workersMax line, requests per operation', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, charts, errors } = await open('endpoint-series', scenarioFile('scenarios/queue-throttling.yaml'));
    expect(errors).toEqual([]);
    expectAllDrawn(charts, ['requests', 'endpoint']);
    const endpoint = (await page.evaluate(`window.loadlabCharts.endpoint.series.slice(1).map((s) => s.label)`)) as string[];
    expect(endpoint).toEqual(expect.arrayContaining(['workers running', 'workersMax', 'queue length', 'jobs in system']));
    // The queue of queue-throttling builds up: its line has a value above 0.
    const queue = (await page.evaluate(
      `(() => { const u = window.loadlabCharts.endpoint; const i = u.series.findIndex((s) => s.label === 'queue length'); return u.data[i]; })()`,
    )) as (number | null)[];
    expect(Math.max(...queue.map((v) => v ?? 0))).toBeGreaterThan(0);
    expect(await page.evaluate(`window.loadlabCharts.requests.series.slice(1).map((s) => s.label)`)).toEqual(['health', 'run', 'status']);
    await page.close();
  });
});
