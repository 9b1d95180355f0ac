/**
 * Golden files: report.md and report.html of one small deterministic run
 * (test/fixtures/ci-gate-failing.yaml, 30 s, a failed threshold) compared byte for byte with
 * test/fixtures/golden/. In the HTML golden the inlined uPlot library (JS and CSS) is replaced by a
 * placeholder so the file stays readable; the real page is checked to carry it verbatim.
 *
 * After a deliberate change to the reports, regenerate and review the diff:
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/report/golden.test.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { uplotAssets } from '../../src/report/html/assets.js';
import { renderHtml } from '../../src/report/render-html.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import { renderMarkdown } from '../../src/report/render-md.js';

const repo = resolve(import.meta.dirname, '..', '..');
const goldenDir = join(repo, 'test', 'fixtures', 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

/** The page with uPlot's own text replaced by a placeholder (the rest, our boot script included, stays). */
function withoutLibrary(html: string): string {
  return html
    .replace(/(<script id="uplot-js">)[\s\S]*?(<\/script>)/, '$1/* uPlot, inlined from node_modules/uplot/dist/uPlot.iife.min.js */$2')
    .replace(/(<style id="uplot-css">)[\s\S]*?(<\/style>)/, '$1/* uPlot CSS, inlined from node_modules/uplot/dist/uPlot.min.css */$2');
}

function compare(name: string, actual: string): void {
  const file = join(goldenDir, name);
  if (update || !existsSync(file)) {
    if (!update) throw new Error(`${file} is missing: run UPDATE_GOLDEN=1 npx vitest run test/report/golden.test.ts`);
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual, `${name} differs from the golden file; if the change is meant, regenerate: UPDATE_GOLDEN=1 npx vitest run test/report/golden.test.ts`).toBe(
    readFileSync(file, 'utf8'),
  );
}

describe('golden reports of ci-gate-failing', () => {
  test('report.md and report.html match the golden files; re-rendering report.json gives the same bytes', async () => {
    const l = loadScenarioFile(join(repo, 'test', 'fixtures', 'ci-gate-failing.yaml'));
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    const html = renderHtml(r);
    compare('ci-gate-failing.report.md', renderMarkdown(r));
    compare('ci-gate-failing.report.html', withoutLibrary(html));

    // The real page carries uPlot itself: one file, no network.
    const { js, css } = uplotAssets();
    expect(html).toContain(`<script id="uplot-js">${js}</script>`);
    expect(html).toContain(`<style id="uplot-css">${css}</style>`);
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);

    // `loadlab report` re-renders from report.json: byte-identical.
    const again = parseRunResult(renderJson(r));
    expect(renderHtml(again)).toBe(html);
    expect(renderMarkdown(again)).toBe(renderMarkdown(r));
  });
});
