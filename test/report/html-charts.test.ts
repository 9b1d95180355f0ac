/**
 * What report.html's charts show for a result (src/report/html/series*.ts): the series a reader
 * sees, with the report's version 3 additions present or absent, the one-line notes instead of
 * empty charts, and long runs cut to at most 2000 points without averaging percentiles.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { loadScenarioFile, parseScenario } from '../../src/load/scenario/loader.js';
import { encode, newHistogram } from '../../src/report/histogram.js';
import type { ChartSlot } from '../../src/report/html/chart-slot.js';
import { NO_DATA, type ChartSpec } from '../../src/report/html/chart-spec.js';
import { chartHtml, slotHtml } from '../../src/report/html/charts.js';
import { grouping, maxPerPoint, pointNote, ratePerSec } from '../../src/report/html/downsample.js';
import { percentilesOverTime } from '../../src/report/html/percentiles.js';
import { chartSlots } from '../../src/report/html/series.js';
import { renderHtml } from '../../src/report/render-html.js';
import type { RunResult } from '../../src/report/run-result.js';

let base: RunResult;
beforeAll(async () => {
  const l = parseScenario(
    {
      name: 'charts',
      durationMs: 40_000,
      endpoint: { id: 'ep', workersMax: 2, jobDurationMs: 3000, limits: { operations: { run: { rate: 10 } } } },
      traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'run-poll', on429: { maxAttempts: 1 } } }],
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  base = await runScenario(l.scenario);
});

const copy = (r: RunResult): RunResult => structuredClone(r);
const slot = (r: RunResult, id: string): ChartSlot => chartSlots(r).find((s) => (s.kind === 'chart' ? s.spec.id : s.id) === id)!;
function chart(r: RunResult, id: string): ChartSpec {
  const s = slot(r, id);
  if (s.kind !== 'chart') throw new Error(`${id} is a note: ${s.note}`);
  return s.spec;
}
const labels = (c: ChartSpec) => c.series.map((s) => s.label);

describe('report.html charts', () => {
  test('version 3 series present: requests by operation, workers by state against workersMax', () => {
    const r = copy(base);
    const n = r.windows!.responseMs.run!.length;
    r.windows!.requests = { status: Array(n).fill(30), run: Array(n).fill(20) };
    r.windows!.endpoint = {
      source: 'sampled',
      queueLength: Array.from({ length: n }, (_, i) => (i === 1 ? -1 : 4)),
      jobsInSystem: Array(n).fill(6),
      workers: {
        running: Array(n).fill(2),
        idle: Array(n).fill(0),
        initializing: Array(n).fill(0.5),
        throttled: Array(n).fill(0),
        unhealthy: Array(n).fill(0),
      },
    };
    const req = chart(r, 'requests');
    expect(req.title).toBe('Requests/s by operation');
    expect(labels(req)).toEqual(['run', 'status']); // sorted, whatever order the result had
    expect(req.series[0]!.values[0]).toBe(2); // 20 per 10 s window
    const ep = chart(r, 'endpoint');
    expect(labels(ep)).toEqual(['workers running', 'workers initializing', 'workersMax', 'queue length', 'jobs in system']);
    expect(ep.series.filter((s) => s.stacked).map((s) => s.label)).toEqual(['workers running', 'workers initializing']);
    expect(new Set(ep.series[2]!.values)).toEqual(new Set([2]));
    expect(ep.series[3]!.values[1]).toBeNull(); // a sampled window without a /health answer is a gap, not 0
    expect(ep.subtitle).toMatch(/\/health/);
  });

  test('version 3 series absent (a version-2 report): all requests from the timeline, the deepest queue per window', () => {
    const r = copy(base);
    r.version = 2;
    delete r.windows!.requests;
    delete r.windows!.endpoint;
    expect(chart(r, 'requests').title).toBe('Requests/s');
    expect(labels(chart(r, 'requests'))).toEqual(['all operations', '2xx answers']);
    const ep = chart(r, 'endpoint');
    expect(ep.title).toBe('Queue depth (maximum)');
    expect(labels(ep)).toEqual(['queue depth, max']);
  });

  test("webhooks: attempts and failures per window, adding up to the run's totals", async () => {
    const l = loadScenarioFile(join(import.meta.dirname, '..', '..', 'scenarios', 'webhook-failing.yaml'));
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    const c = chart(r, 'webhooks');
    expect(c.title).toBe('Webhook attempts and failures');
    expect(labels(c)).toEqual(['attempts', 'failed attempts']);
    const sum = (i: number) => c.series[i]!.values.reduce<number>((a, v) => a + (v ?? 0), 0);
    expect(sum(0)).toBe(r.webhooks.attempts);
    expect(sum(1)).toBe(r.webhooks.failedAttempts);
    expect(r.webhooks.failedAttempts).toBeGreaterThan(0);
    // A version-2 report has failures per window only.
    const v2 = copy(r);
    delete v2.timeline.webhookAttempts;
    expect(labels(chart(v2, 'webhooks'))).toEqual(['failed attempts']);
  });

  test('429s stacked by the causes that happened; notes instead of empty charts', () => {
    const lim = chart(base, 'limited');
    expect(labels(lim)).toEqual(['rate']);
    expect(lim.subtitle).toMatch(/none by concurrency or queue/);
    expect(lim.series[0]!.values.some((v) => (v ?? 0) > 0)).toBe(true);
    const html = renderHtml(base);
    expect(html).toContain('No webhooks in this run.');
    expect(html).toContain('No retention expiries seen in this run');
    expect(html).not.toContain('id="chart-webhooks"');
  });

  test('a chart with nothing to draw is not drawn on any page: a line saying why stands in its place', () => {
    const spec = (values: (number | null)[][], extra: Partial<ChartSpec> = {}): ChartSpec => ({
      id: 'q',
      title: 'Queue delay',
      unit: 'ms',
      x: [1, 2, 3],
      series: values.map((v, i) => ({ label: `s${i}`, values: v })),
      ...extra,
    });
    const figure = /<figure class="chart" id="chart-q">/;
    expect(chartHtml(spec([[null, 4, null]]))).toMatch(figure);
    expect(chartHtml(spec([[null, null, null], [], [Number.NaN, null, null]].map((v) => (v.length ? v : [null, null, null]))))).toBe(
      `<p class="chart-note" id="note-q"><strong>Queue delay:</strong> ${NO_DATA}</p>`,
    );
    // A limit or a model's line alone is no data: the chart says why instead, in its own words.
    const limitOnly = spec([[null, null, null]], { noData: 'No run measured a queue delay.' });
    limitOnly.series.push({ label: 'SLO < 500', values: [500, 500, 500], reference: true });
    expect(chartHtml(limitOnly)).toBe('<p class="chart-note" id="note-q"><strong>Queue delay:</strong> No run measured a queue delay.</p>');
    expect(chartHtml({ ...spec([]), x: [] })).not.toMatch(figure);
    // The same guard for a slot built as a chart (report.html, compare.html).
    expect(slotHtml({ kind: 'chart', spec: spec([[null, null, null]]) })).toContain('id="note-q"');
  });

  test('a version-1 report: no per-window histograms, so notes for the time charts', () => {
    const r = copy(base);
    r.version = 1;
    delete r.windows;
    const s = slot(r, 'response-time');
    expect(s).toMatchObject({ kind: 'note', note: expect.stringMatching(/version 1\) has no per-window histograms/) });
    expect(slot(r, 'turnaround').kind).toBe('note');
    expect(renderHtml(r)).toMatch(/Response time p50 \/ p95 \/ p99 by operation:<\/strong> This report \(version 1\)/);
  });

  test('a 24 h timeline: 1-minute points, rates averaged, maxima kept, unobserved windows are gaps', () => {
    const g = grouping(8652, 10_000);
    expect(g).toMatchObject({ per: 6, points: 1442 });
    expect(pointNote(g, 'mean')).toBe('each point 1 min: mean of 6 windows of 10 s');
    const counts = Array(8652).fill(0);
    counts[0] = 60; // 60 requests in the first 10 s: 1/s over the first minute
    expect(ratePerSec(counts, g)[0]).toBe(1);
    const depth = Array(8652).fill(-1);
    depth[7] = 3;
    depth[8] = 9;
    expect(maxPerPoint(depth, g).slice(0, 3)).toEqual([null, 9, null]);
    expect(grouping(259_200, 10_000).points).toBeLessThanOrEqual(2000);
  });

  test("a grouped point has the percentile of all its samples, not the mean of the windows' percentiles", () => {
    const fast = newHistogram();
    for (let i = 0; i < 100; i++) fast.recordValue(10);
    const slow = newHistogram();
    slow.recordValue(1000);
    slow.recordValue(1000);
    const windows = [encode(fast).hdr, encode(slow).hdr];
    const [p50, p99] = percentilesOverTime([windows], grouping(2, 10_000, 1), [50, 99]);
    expect(p50).toEqual([10]);
    expect(p99![0]).toBeGreaterThanOrEqual(999); // 2 of 102 samples are slow: the p99 is slow (an average of p99s would say ~505)
  });
});
