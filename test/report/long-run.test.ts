/**
 * The longest run the schema allows (30 days: 259 200 timeline windows) renders in every format:
 * no `Math.max(...array)` over the windows, no single string for metrics.om. Low rate, so the run
 * itself stays quick.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { writeOpenMetrics } from '../../src/report/render-openmetrics.js';

const DAYS_30 = 30 * 86_400_000;

describe('a 30-day run', () => {
  test('json, md, html, junit and openmetrics all render', async () => {
    const l = parseScenario(
      {
        name: 'month',
        durationMs: DAYS_30,
        drainMs: 0,
        endpoint: { id: 'ep', workersMax: 1, jobDurationMs: 1000 },
        traffic: [{ name: 'hourly', arrival: { process: 'constant', ratePerSec: 1 / 3600 }, client: { behaviour: 'run-poll' } }],
        thresholds: ['jobs_completed == 720'],
      },
      'inline',
    );
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    // The run ends when the last hourly session does, a little under 30 days.
    const windows = r.timeline.requests.length;
    expect(windows).toBeGreaterThan(258_000);
    expect(r.thresholds[0]).toMatchObject({ ok: true });

    const json = renderJson(r);
    expect(parseRunResult(json).timeline.requests).toHaveLength(windows);
    expect(renderMarkdown(r)).toMatch(/2592000 s of traffic/);
    const html = renderHtml(r);
    // Downsampled: 259 200 windows of 10 s become 30-minute points (at most 2000 per chart).
    expect(html).toMatch(/each point 30 min: mean of 180 windows of 10 s/);
    const xs = [...html.matchAll(/"x":\[([^\]]*)\]/g)].map((m) => m[1]!.split(',').length);
    expect(xs.length).toBeGreaterThan(2);
    for (const n of xs) expect(n).toBeLessThanOrEqual(2000);
    expect(html.length).toBeLessThan(600_000);
    expect(renderJunit(r)).toContain('tests="2" failures="0"');

    let bytes = 0;
    let pieces = 0;
    let last = '';
    let samplesOf2xx = 0;
    writeOpenMetrics(r, Date.UTC(2024, 0, 1), (text) => {
      bytes += text.length;
      pieces++;
      last = text;
      samplesOf2xx += `\n${text}`.split('\nloadlab_client_responses_2xx_total{').length - 1;
    });
    expect(last).toBe('# EOF\n');
    // One sample per window plus the 0 at the start; ~300 MB, written in pieces.
    expect(samplesOf2xx).toBe(windows + 1);
    expect(bytes).toBeGreaterThan(2 ** 28);
    expect(pieces).toBeGreaterThan(100);
  }, 180_000);
});
