/**
 * A version-1 report.json (no windows, no per-flow job histograms) still loads, renders and
 * re-checks; so does a report whose stream times are whole ms (written before 0.01 ms).
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { evaluateThresholds } from '../../src/report/thresholds.js';
import { compareRuns } from '../../src/report/compare/compare.js';
import { formatChange } from '../../src/report/compare/format.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import { asWholeMsReport, fineRun } from '../helpers/fine-streams.js';

const sc = scenarioSchema.parse({
  name: 'v1',
  durationMs: 30_000,
  traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'run-poll' } }],
});

/** The same run as version 1 wrote it: the v2 additions removed. */
function asV1(text: string): string {
  const r = JSON.parse(text) as Record<string, unknown> & { flows: Record<string, Record<string, unknown>> };
  r.version = 1;
  delete r.windows;
  delete r.aborted;
  for (const f of Object.values(r.flows)) delete f.jobs;
  return JSON.stringify(r);
}

describe('a version-1 report', () => {
  test('parses and renders; whole-run thresholds re-check, window thresholds fail with a reason', async () => {
    const v2 = await runScenario(sc);
    const v1 = parseRunResult(asV1(renderJson(v2)));
    expect(v1.version).toBe(1);
    expect(renderMarkdown(v1)).toMatch(/# /);
    expect(renderHtml(v1)).toMatch(/<html/i);
    expect(renderJunit(v1)).toMatch(/<testsuites/);
    const [q, t, w] = evaluateThresholds(v1, ['queue_delay_p99_ms >= 0', 'turnaround_p95_ms < 1000000', 'p95_ms{run} < 500 every 60s']);
    expect(q).toMatchObject({ ok: true, value: v2.jobs.queueDelayMs.summary.p99 });
    expect(t).toMatchObject({ ok: false, value: null });
    expect(w).toMatchObject({ ok: false, value: null, reason: expect.stringMatching(/version 1 has no per-window histograms/) });
    expect(() => parseRunResult(JSON.stringify({ ...v1, version: 4 }))).toThrow(/unsupported RunResult version 4/);
  });
});

describe('a report from before 0.01 ms stream times (whole-ms TTFT, ITL, TPOT histograms, no scale)', () => {
  test('renders, re-checks its whole-ms values, and compares with a 0.01 ms run', async () => {
    const fine = await fineRun();
    const old = asWholeMsReport(fine);
    const s = old.flows.chat!.stream!;
    expect(s.itlMs.scale).toBeUndefined();
    expect(old.windows!.streams!.chat!.timeScale).toBeUndefined();
    expect(s.itlMs.summary.p50).toBe(6);

    const md = renderMarkdown(old);
    expect(md).toContain('| 6 / 6 / 6 / 6 |');
    expect(md).toContain('Times are whole ms');
    expect(renderHtml(old)).toMatch(/Inter-token latency p50/);
    expect(renderOpenMetrics(old, Date.UTC(2026, 0, 1))).toMatch(/loadlab_client_itl_seconds_bucket\{[^}]*le="0\.006"\} 190 /);

    // Judged on what it holds: whole ms, per window too.
    const [whole, every] = evaluateThresholds(old, ['itl_p50_ms < 6.1', 'itl_p50_ms < 6.1 every 10s']);
    expect([whole!.value, whole!.ok, every!.value, every!.ok]).toEqual([6, true, 6, true]);

    // Old (A) against new (B): 6 ms → 6.20 ms, a worsening under compare's 10 %.
    const c = compareRuns({ file: 'old.json', result: old }, { file: 'new.json', result: fine });
    const row = c.flows.find((g) => g.name === 'chat')!.rows.find((r) => r.label === 'ITL p50')!;
    expect(row).toMatchObject({ a: 6, b: 6.2, direction: 'worse' });
    expect(formatChange(row)).toBe('ITL p50 6 ms → 6.20 ms (+0.20 ms, +3.3 %)');
  });
});
