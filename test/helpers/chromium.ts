/**
 * Chromium for the browser tests (report.html, compare.html, plan.html): playwright-core driving
 * the system's Chromium — $CHROMIUM, else `chromium` or `chromium-browser` on PATH (Debian: apt-get install -y
 * chromium). Without it a test skips with MISSING, except under CI=true where its absence fails.
 * Also what a page shows of its charts (CHECK_CHARTS, read in the browser) and the check that
 * every chart is drawn.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const MISSING = 'Chromium not found ($CHROMIUM, chromium or chromium-browser on PATH; Debian: apt-get install -y chromium)';

function findChromium(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser']) {
    const w = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (w.status === 0 && w.stdout.trim()) return w.stdout.trim();
  }
  return undefined;
}

/** The Chromium executable, or undefined (then skip); throws under CI=true when there is none. */
export function chromiumExecutable(): string | undefined {
  const executable = findChromium();
  if (!executable && process.env.CI === 'true') throw new Error(`${MISSING}; CI=true needs it`);
  return executable;
}

export function launchChromium(executable: string): Promise<Browser> {
  return chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-gpu'], timeout: 60_000 });
}

/** Collects console errors and warnings, page errors and any request that is not file:// (a page must need no network). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('request', (q) => {
    if (!q.url().startsWith('file:')) errors.push(`network request: ${q.url()}`);
  });
  return errors;
}

/** What the page shows of its charts, read in the browser. */
export interface ChartCheck {
  id: string;
  series: number;
  points: number;
  nonNull: number;
  colouredPixels: number;
}

export const CHECK_CHARTS = `(() => {
  const charts = window.loadlabCharts || {};
  return [...document.querySelectorAll('figure.chart')].map((fig) => {
    const id = fig.id.slice('chart-'.length);
    const u = charts[id];
    if (!u) return { id, series: 0, points: 0, nonNull: 0, colouredPixels: 0 };
    const ys = u.data.slice(1);
    const { left, top, width, height } = u.bbox;
    const px = u.ctx.getImageData(Math.round(left), Math.round(top), Math.max(1, Math.round(width)), Math.max(1, Math.round(height))).data;
    let coloured = 0;
    for (let i = 0; i < px.length; i += 4) {
      const [r, g, b, a] = [px[i], px[i + 1], px[i + 2], px[i + 3]];
      if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
    }
    return {
      id, series: ys.length, points: Math.min(...ys.map((s) => s.length)),
      nonNull: ys.reduce((n, s) => n + s.filter((v) => v !== null && v !== undefined).length, 0), colouredPixels: coloured,
    };
  });
})()`;

/**
 * Opens `htmlFile` in a new page (errors watched from the start), reads its charts and saves a
 * full-page screenshot at `screenshotFile`.
 */
export async function openCharts(browser: Browser, htmlFile: string, screenshotFile: string): Promise<{ page: Page; errors: string[]; charts: ChartCheck[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = watchErrors(page);
  await page.goto(pathToFileURL(htmlFile).href, { waitUntil: 'load', timeout: 60_000 });
  const charts = (await page.evaluate(CHECK_CHARTS)) as ChartCheck[];
  await page.screenshot({ path: screenshotFile, fullPage: true, timeout: 60_000 });
  return { page, errors, charts };
}

/** The page has at least the charts `ids`, and every chart on it has data and coloured pixels in its plot. */
export function expectAllDrawn(charts: ChartCheck[], ids: string[]): void {
  expect(charts.map((c) => c.id)).toEqual(expect.arrayContaining(ids));
  for (const c of charts) {
    expect(c.series, `${c.id}: series`).toBeGreaterThan(0);
    expect(c.points, `${c.id}: points`).toBeGreaterThan(0);
    expect(c.nonNull, `${c.id}: values`).toBeGreaterThan(0);
    expect(c.colouredPixels, `${c.id}: nothing drawn in the plot`).toBeGreaterThan(50);
  }
}
