/**
 * Late arrivals and the verdict: a run is INVALID for them only when they decided a threshold
 * over times from the intended send (judged again from the actual send, `fromSend`); otherwise
 * the verdict stands with one warning line. Dropped arrivals, and results without the second
 * judgement, keep the 1 % rule. The late arrivals are real: an in-flight cap of 1 holds 1 s
 * /runsync calls arriving twice a second (in-process, so every figure is deterministic).
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderStepSummary } from '../../src/report/render-step-summary.js';
import { verdictBanner } from '../../src/report/html/verdict-banner.js';
import type { RunResult } from '../../src/report/run-result.js';
import { verdict } from '../../src/report/verdict.js';

async function held(thresholds: string[], openModel: Record<string, number> = {}): Promise<RunResult> {
  const l = parseScenario(
    {
      name: 'held',
      durationMs: 10_000,
      endpoint: { workersMax: 1, jobDurationMs: 1000 },
      openModel: { maxInFlight: 1, ...openModel },
      traffic: [{ name: 's', arrival: { process: 'constant', ratePerSec: 2 }, client: { behaviour: 'runsync', waitMs: 30_000 } }],
      thresholds,
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario);
}

const LAG = '19 of 20 arrivals late, send lag p99 9 500 ms, max 9 500 ms';
const mdHead = (r: RunResult) => renderMarkdown(r).split('\n\n')[0]!.split('  \n');

describe('late arrivals that decide a threshold: INVALID', () => {
  test('a response-time threshold that fails from the intended send and passes from the actual send', async () => {
    const r = await held(['p99_ms{runsync} < 2000', 'jobs_failed == 0']);
    expect(r.thresholds[0]).toEqual({ expr: 'p99_ms{runsync} < 2000', value: 10500, ok: false, fromSend: { value: 1000, ok: true } });
    expect(r.thresholds[1]).toEqual({ expr: 'jobs_failed == 0', value: 0, ok: true });
    const cause = `the load generator fell behind, and that decides p99_ms{runsync} < 2000 (measured 10500 from the intended send, 1000 from the actual send): ${LAG}`;
    expect(verdict(r)).toMatchObject({ status: 'INVALID', invalid: 'behind', cause, line: `INVALID: ${cause}` });
    expect(verdict(r).warning).toBeUndefined();
    expect(mdHead(r)[0]).toBe(`INVALID: ${cause}`);
    expect(renderJunit(r)).toContain(`<failure message="${cause.replace('<', '&lt;')}" type="invalid">`);
  });

  test('every-window and turnaround thresholds are judged again too; the first that changed is named', async () => {
    const r = await held(['p99_ms{runsync} < 60000', 'p99_ms{runsync} < 2000 every 10s', 'turnaround_max_ms < 2000']);
    expect(r.thresholds.map((t) => t.fromSend)).toEqual([
      { value: 1000, ok: true },
      { value: 1000, ok: true },
      { value: 1000, ok: true },
    ]);
    expect(verdict(r).cause).toBe(
      `the load generator fell behind, and that decides p99_ms{runsync} < 2000 every 10s (measured 5003 from the intended send, 1000 from the actual send) and 1 more threshold: ${LAG}`,
    );
  });
});

describe('late arrivals that decide nothing: the verdict stands, with one warning line', () => {
  test('PASS stays PASS; the warning follows the verdict line everywhere it is printed', async () => {
    const r = await held(['p99_ms{runsync} < 60000']);
    const warning = `warning: ${LAG}; every response-time and turnaround threshold judges the same from the actual send`;
    expect(verdict(r)).toMatchObject({ status: 'PASS', line: 'PASS', warning });
    expect(mdHead(r)).toEqual(['PASS', warning, 'throttled by: rate 0, queue 0, concurrency 0', 'limits above 80 %: workers 100 % (1 of 1)']);
    expect(renderStepSummary(r)).toContain(`**PASS**  \n${warning}  \nthrottled by:`);
    expect(verdictBanner(r)).toContain(`<li>${warning}</li>`);
    expect(renderJunit(r)).toContain(`<system-out>the target answered; ${LAG}; every response-time`);
  });

  test('FAIL stays FAIL when the threshold fails both ways', async () => {
    const r = await held(['p99_ms{runsync} < 500']);
    expect(r.thresholds[0]!.fromSend).toEqual({ value: 1000, ok: false });
    expect(verdict(r)).toMatchObject({
      status: 'FAIL',
      line: 'FAIL: p99_ms{runsync} < 500 (measured 10500)',
      warning: expect.stringMatching(/^warning: 19 of 20 arrivals late/),
    });
  });

  test('no threshold on response time or turnaround: nothing the lateness could change', async () => {
    const r = await held(['jobs_failed == 0']);
    expect(verdict(r)).toMatchObject({ status: 'PASS', warning: `warning: ${LAG}; no threshold is on response time or turnaround` });
  });
});

describe('the 1 % rule where the second judgement cannot clear the run', () => {
  test('dropped arrivals: more than 1 % and at least 3 is INVALID, whatever the thresholds', async () => {
    // Held more than 2 s: dropped.
    const r = await held(['p99_ms{runsync} < 60000'], { maxWaitMs: 2000 });
    expect(r.arrivals.dropped).toBeGreaterThanOrEqual(3);
    const a = r.arrivals;
    expect(verdict(r)).toMatchObject({
      status: 'INVALID',
      invalid: 'behind',
      cause: `the load generator fell behind: ${((100 * a.dropped) / a.intended).toFixed(1)} % of arrivals dropped (${a.dropped} dropped, ${a.late} late of 20); latency figures are not trustworthy`,
    });
    const few: RunResult = { ...r, arrivals: { ...a, intended: 1000, dropped: 10, late: 0 } };
    expect(verdict(few).status).toBe('PASS');
    expect(verdict({ ...few, arrivals: { ...few.arrivals, dropped: 11 } }).status).toBe('INVALID');
    expect(verdict({ ...few, arrivals: { ...few.arrivals, intended: 5, dropped: 2 } }).status).toBe('PASS');
  });

  test('a report without the second judgement (an older one, a merged one): more than 1 % late, and at least 3, is INVALID', async () => {
    const r = await held(['p99_ms{runsync} < 60000']);
    const older: RunResult = { ...r, thresholds: r.thresholds.map(({ fromSend: _, ...t }) => t) };
    expect(verdict(older)).toMatchObject({
      status: 'INVALID',
      invalid: 'behind',
      cause: 'the load generator fell behind: 95.0 % of arrivals late or dropped (19 late, 0 dropped of 20); latency figures are not trustworthy',
    });
    const fewLate: RunResult = { ...older, arrivals: { ...older.arrivals, intended: 1900 } };
    expect(verdict(fewLate)).toMatchObject({
      status: 'PASS',
      warning: 'warning: 19 of 1 900 arrivals late, send lag p99 9 500 ms, max 9 500 ms; within the 1 % allowed',
    });
  });

  test('no late arrivals: the thresholds carry no second judgement and the verdict no warning', async () => {
    const l = parseScenario(
      {
        name: 'on-time',
        durationMs: 10_000,
        endpoint: { workersMax: 1, jobDurationMs: 1000 },
        openModel: { maxInFlight: 1 },
        traffic: [{ name: 's', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 30_000 } }],
        thresholds: ['p99_ms{runsync} < 60000'],
      },
      'inline',
    );
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await runScenario(l.scenario);
    expect(r.arrivals.late).toBe(0);
    expect(r.thresholds).toEqual([{ expr: 'p99_ms{runsync} < 60000', value: 1000, ok: true }]);
    expect(verdict(r)).toMatchObject({ status: 'PASS', line: 'PASS' });
    expect(verdict(r).warning).toBeUndefined();
    expect(mdHead(r)).toHaveLength(3);
  });
});
