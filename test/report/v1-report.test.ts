/** A version-1 report.json (no windows, no per-flow job histograms) still loads, renders and re-checks. */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { evaluateThresholds } from '../../src/report/thresholds.js';

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
