/**
 * compare.html in a real browser: two stored runs of burst-rate-limit (workersMax 50 as A, 5 as
 * B: a deeper queue and more 429s) made by the built CLI, then `loadlab compare A B`; Chromium
 * opens compare.html via file:// and checks what a reader sees — no console or page errors, no
 * network, every chart drawn by uPlot (data in every series, coloured pixels in the plot), both
 * runs in each chart's legend (A solid, B dashed), B's extra 429s on the 429s chart, the values of
 * both runs when hovering. The runs, compare.html and its screenshot land in a temp directory
 * (printed). Chromium: test/helpers/chromium.ts (skipped without it, unless CI=true).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliBatch } from '../helpers/cli-batch.js';
import { CHECK_CHARTS, chromiumExecutable, expectAllDrawn, launchChromium, MISSING, watchErrors, type ChartCheck } from '../helpers/chromium.js';

const executable = chromiumExecutable();
const out = mkdtempSync(join(tmpdir(), 'loadlab-compare-browser-'));
const [a, b, compared] = [join(out, 'workers-50'), join(out, 'workers-5'), join(out, 'compare')];
let browser: Browser | undefined;

beforeAll(async () => {
  if (!executable) return;
  console.log(`compare-browser: runs, compare.html and its screenshot in ${out}`);
  const sc = parse(readFileSync('scenarios/burst-rate-limit.yaml', 'utf8')) as { endpoint: Record<string, unknown>; $schema?: string };
  delete sc.$schema;
  const five = join(out, 'burst-workers-5.json');
  writeFileSync(five, JSON.stringify({ ...sc, endpoint: { ...sc.endpoint, workersMax: 5 } }));
  const [ra, rb, rc] = cliBatch([
    { args: ['run', 'scenarios/burst-rate-limit.yaml', '--out', a] },
    { args: ['run', five, '--out', b] },
    { args: ['compare', a, b, '--out', compared] },
  ]);
  expect(ra!.status, ra!.stderr).toBe(0);
  expect(rb!.status, rb!.stderr).toBe(0);
  expect(rc!.status, rc!.stderr).toBe(0);
  browser = await launchChromium(executable);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** The labels of chart `id`'s series (x first), and whether each is dashed, read in the browser. */
const SERIES = (id: string) => `window.loadlabCharts[${JSON.stringify(id)}].series.slice(1).map((s) => [s.label, Array.isArray(s.dash) && s.dash.length > 0])`;

describe('compare.html in Chromium', () => {
  test('every chart draws with both runs, A solid and B dashed; no errors; hovering shows both runs', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(pathToFileURL(join(compared, 'compare.html')).href, { waitUntil: 'load', timeout: 60_000 });
    const charts = (await page.evaluate(CHECK_CHARTS)) as ChartCheck[];
    await page.screenshot({ path: join(compared, 'compare.png'), fullPage: true, timeout: 60_000 });
    expect(errors).toEqual([]);
    expect(await page.textContent('h1')).toBe('loadlab compare: burst-rate-limit vs burst-rate-limit');
    expectAllDrawn(charts, ['requests', 'limited', 'response-p95', 'response-p99', 'turnaround-p95', 'queue-delay-p95', 'queue']);

    // Each chart pairs every line: "A x" solid, "B x" dashed.
    for (const { id } of charts) {
      const series = (await page.evaluate(SERIES(id))) as [string, boolean][];
      const as = series.filter(([l]) => l.startsWith('A ')).map(([l, dashed]) => [l.slice(2), dashed]);
      const bs = series.filter(([l]) => l.startsWith('B ')).map(([l, dashed]) => [l.slice(2), dashed]);
      expect(as.length, `${id}: series of A`).toBeGreaterThan(0);
      expect(
        as.map(([l]) => l),
        `${id}: the same lines for both runs`,
      ).toEqual(bs.map(([l]) => l));
      expect(as.every(([, dashed]) => !dashed) && bs.every(([, dashed]) => dashed), `${id}: A solid, B dashed`).toBe(true);
    }
    expect(((await page.evaluate(SERIES('requests'))) as [string, boolean][]).map(([l]) => l)).toEqual(['A requests', 'B requests', 'A 2xx', 'B 2xx']);
    // The legend a reader sees names both runs.
    const legend = await page.$$eval('#chart-limited .u-legend .u-label', (cells) => cells.map((c) => c.textContent));
    expect(legend).toEqual(expect.arrayContaining(['A 429s', 'B 429s']));

    // Five workers instead of 50: B's 429s line lies above A's.
    const limited = (await page.evaluate(`window.loadlabCharts.limited.data.slice(1).map((s) => s.reduce((n, v) => n + (v ?? 0), 0))`)) as number[];
    expect(limited[1]).toBeGreaterThan(limited[0]!);

    // Hovering the 429s chart shows the run time and both runs' values there.
    await page.hover('#chart-limited .u-over', { position: { x: 300, y: 60 }, timeout: 30_000 });
    const values = await page.$$eval('#chart-limited .u-legend .u-value', (cells) => cells.map((c) => c.textContent));
    expect(values[0]).toMatch(/^\d+:\d\d:\d\d$/);
    expect(values.slice(1)).toHaveLength(2);
    expect(values.slice(1).every((v) => /^\d[\d .]*$/.test(v ?? ''))).toBe(true);
    await page.close();
  });
});
