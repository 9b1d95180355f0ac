/**
 * compare.html in a real browser: two stored runs of burst-rate-limit (workersMax 50 as A, 5 as
 * B: a deeper queue and more 429s) made by the built CLI, then `loadlab compare A B`; Chromium
 * opens compare.html via file:// and checks what a reader sees — no console or page errors, no
 * network, every chart drawn by uPlot (data in every series, coloured pixels in the plot), both
 * runs in each chart's legend (A solid, B dashed), B's extra 429s on the 429s chart, the values of
 * both runs when hovering. The runs, compare.html and its screenshot land in a temp directory
 * (printed). Then two runs of llm-chat (B's engine twice as slow per decode step): compare.html charts
 * the streaming flow's TTFT, ITL and TPOT p95 of both runs, B above A, in ms with their fraction.
 * Chromium: test/helpers/chromium.ts (skipped without it, unless CI=true).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cliBatch } from '../helpers/cli-batch.js';
import { chromiumExecutable, expectAllDrawn, launchChromium, MISSING, openCharts } from '../helpers/chromium.js';

const executable = chromiumExecutable();
const out = mkdtempSync(join(tmpdir(), 'loadlab-compare-browser-'));
const [a, b, compared] = [join(out, 'workers-50'), join(out, 'workers-5'), join(out, 'compare')];
const [llmA, llmB, llmCompared] = [join(out, 'llm-fast'), join(out, 'llm-slow'), join(out, 'compare-llm')];
let browser: Browser | undefined;

beforeAll(async () => {
  if (!executable) return;
  console.log(`compare-browser: runs, compare.html and its screenshot in ${out}`);
  const sc = parse(readFileSync('scenarios/burst-rate-limit.yaml', 'utf8')) as { endpoint: Record<string, unknown>; $schema?: string };
  delete sc.$schema;
  const five = join(out, 'burst-workers-5.json');
  writeFileSync(five, JSON.stringify({ ...sc, endpoint: { ...sc.endpoint, workersMax: 5 } }));
  // llm-chat for 2 min as A; B's engine takes twice as long per decode step: slower tokens, later first tokens.
  const llm = parse(readFileSync('scenarios/llm-chat.yaml', 'utf8')) as { endpoint: { llm: { engine: Record<string, number> } }; $schema?: string };
  delete llm.$schema;
  const [fast, slow] = [join(out, 'llm-fast.json'), join(out, 'llm-slow.json')];
  writeFileSync(fast, JSON.stringify({ ...llm, durationMs: 120_000 }));
  const engine = { ...llm.endpoint.llm.engine, decodeMs: 13 };
  writeFileSync(slow, JSON.stringify({ ...llm, durationMs: 120_000, endpoint: { ...llm.endpoint, llm: { ...llm.endpoint.llm, engine } } }));
  const ran = cliBatch([
    { args: ['run', 'scenarios/burst-rate-limit.yaml', '--out', a] },
    { args: ['run', five, '--out', b] },
    { args: ['compare', a, b, '--out', compared] },
    { args: ['run', fast, '--out', llmA] },
    { args: ['run', slow, '--out', llmB] },
    { args: ['compare', llmA, llmB, '--out', llmCompared] },
  ]);
  // A run missing an SLO exits 99; the runs only have to write their reports.
  for (const r of ran) expect([0, 99], r.stderr).toContain(r.status);
  browser = await launchChromium(executable);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** The labels of chart `id`'s series (x first), and whether each is dashed, read in the browser. */
const SERIES = (id: string) => `window.loadlabCharts[${JSON.stringify(id)}].series.slice(1).map((s) => [s.label, Array.isArray(s.dash) && s.dash.length > 0])`;

/** Opens `dir`'s compare.html (errors watched), reads its charts and keeps a screenshot beside it. */
async function openCompare(dir: string) {
  return openCharts(browser!, join(dir, 'compare.html'), join(dir, 'compare.png'));
}

describe('compare.html in Chromium', () => {
  test('every chart draws with both runs, A solid and B dashed; no errors; hovering shows both runs', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, errors, charts } = await openCompare(compared);
    expect(errors).toEqual([]);
    expect(await page.textContent('h1')).toBe('loadlab compare: burst-rate-limit vs burst-rate-limit');
    // No flow streamed in either run: no stream charts.
    expectAllDrawn(charts, ['requests', 'limited', 'response-p95', 'response-p99', 'turnaround-p95', 'queue-delay-p95', 'queue']);
    expect(charts.map((c) => c.id).filter((id) => /^(ttft|itl|tpot)/.test(id))).toEqual([]);

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

  test('two LLM runs: TTFT, ITL and TPOT p95 of the streaming flow over time, A solid and B dashed; the slower engine (B) above A', async (ctx) => {
    if (!executable) ctx.skip(MISSING);
    const { page, errors, charts } = await openCompare(llmCompared);
    expect(errors).toEqual([]);
    expect(charts.map((c) => c.id)).toEqual(expect.arrayContaining(['ttft-p95', 'itl-p95', 'tpot-p95']));
    expectAllDrawn(
      charts.filter((c) => ['ttft-p95', 'itl-p95', 'tpot-p95'].includes(c.id)),
      ['ttft-p95', 'itl-p95', 'tpot-p95'],
    );
    for (const id of ['ttft-p95', 'itl-p95', 'tpot-p95']) {
      expect(await page.evaluate(SERIES(id)), id).toEqual([
        ['A chat p95', false],
        ['B chat p95', true],
      ]);
      // Mean of each run's points: B's engine decodes at 13 ms a step against A's 6.5.
      const [ma, mb] = (await page.evaluate(
        `window.loadlabCharts[${JSON.stringify(id)}].data.slice(1).map((s) => { const v = s.filter((x) => x != null); return v.reduce((n, x) => n + x, 0) / v.length; })`,
      )) as number[];
      expect(mb!, id).toBeGreaterThan(ma!);
    }
    // ITL in ms with its fraction (0.01 ms histograms): A's p95 near the engine's step, not rounded to whole ms.
    const itlA = (await page.evaluate(`window.loadlabCharts['itl-p95'].data[1].filter((x) => x != null)`)) as number[];
    expect(itlA.length).toBeGreaterThan(5);
    expect(itlA.some((v) => !Number.isInteger(v))).toBe(true);
    expect(Math.max(...itlA)).toBeLessThan(13);
    await page.close();
  });
});
