/** The verdict banner at the top of report.html: colour by verdict, and what made it so. */
import { beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { verdictBanner } from '../../src/report/html/verdict-banner.js';
import type { RunResult } from '../../src/report/run-result.js';

let base: RunResult;
beforeAll(async () => {
  const l = parseScenario(
    {
      name: 'banner',
      durationMs: 20_000,
      traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
      thresholds: ['jobs_failed == 0'],
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  base = await runScenario(l.scenario);
});

describe('verdict banner', () => {
  test('PASS: green, thresholds counted, 429s by cause', () => {
    const html = verdictBanner(base);
    expect(html).toContain('class="verdict verdict-pass"');
    expect(html).toContain('<strong>PASS</strong> <span>1 of 1 thresholds passed</span>');
    expect(html).toContain('throttled by: rate 0, queue 0, concurrency 0');
  });

  test('FAIL: red, an every-threshold with the window that broke it, an abort', () => {
    const r: RunResult = {
      ...base,
      thresholds: [...base.thresholds, { expr: 'p95_ms{run} < 5 every 10s', value: 12, ok: false, window: { fromMs: 10_000, toMs: 20_000, value: 12 } }],
      aborted: { threshold: 'p95_ms{run} < 5 every 10s', atMs: 20_000 },
    };
    const html = verdictBanner(r);
    expect(html).toContain('class="verdict verdict-fail"');
    expect(html).toContain('threshold <code>p95_ms{run} &lt; 5 every 10s</code> failed: measured 12 in the window 10 s–20 s');
    expect(html).toContain('run aborted at 20 s by <code>p95_ms{run} &lt; 5 every 10s</code>');
  });

  test('INVALID: amber for a run the user interrupted, even with a failed threshold', () => {
    const r: RunResult = {
      ...base,
      thresholds: [...base.thresholds, { expr: 'p95_ms{run} < 5', value: 12, ok: false }],
      interrupted: { atMs: 21_500 },
    };
    const html = verdictBanner(r);
    expect(html).toContain('class="verdict verdict-invalid"');
    expect(html).toContain('run interrupted at 21.5 s');
  });

  test('INVALID: amber, with the cause', () => {
    const r: RunResult = { ...base, unreachable: { status: 401, answers: 20, stoppedEarly: true } };
    const html = verdictBanner(r);
    expect(html).toContain('class="verdict verdict-invalid"');
    expect(html).toContain('every request answered 401: check --api-key or RUNPOD_API_KEY');
  });
});
