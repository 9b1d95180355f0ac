/** verdict(result): pure over a RunResult — the line's wording, 429s by cause, limits above 80 %, unreachable. */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import type { RunResult } from '../../src/report/run-result.js';
import { group, verdict } from '../../src/report/verdict.js';
import { renderMarkdown } from '../../src/report/render-md.js';

async function result(thresholds: string[] = []): Promise<RunResult> {
  const l = parseScenario(
    {
      name: 'verdict-check',
      durationMs: 10_000,
      endpoint: { workersMax: 2, jobDurationMs: 500 },
      traffic: [
        { name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll', poll: { baseMs: 1000, factor: 1, jitter: 0 } } },
      ],
      thresholds,
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario);
}

describe('verdict', () => {
  test('PASS; with 5xx answers and transport errors it says so but still passes', async () => {
    const r = await result(['jobs_completed == 10']);
    expect(verdict(r)).toMatchObject({ status: 'PASS', line: 'PASS' });
    const st = r.operations.status!;
    st.byStatus = { ...st.byStatus, 503: 12, 500: 1 };
    st.transportErrors = 3;
    expect(verdict(r)).toMatchObject({ status: 'PASS', line: 'PASS (but 1 × 500, 12 × 503, 3 transport errors)' });
  });

  test('FAIL lists each failed threshold with the measured value', async () => {
    const v = verdict(await result(['jobs_completed > 10', 'jobs_failed == 0', 'p99_ms{runsync} < 5']));
    expect(v.status).toBe('FAIL');
    expect(v.line).toBe('FAIL: jobs_completed > 10 (measured 10); p99_ms{runsync} < 5 (measured no data)');
  });

  test('429s by cause, rate-limited operations named; limits above 80 %', async () => {
    const r = await result();
    r.operations.run!.limited = { rate: 3088, concurrency: 0, queue: 2, unknown: 0 };
    expect(verdict(r).throttled).toBe('throttled by: rate 3 088 on /run, queue 2, concurrency 0');
    r.headroom.operations = [{ operation: 'run', peakPer10s: 950, ratePer10s: 1000, peakInFlight: 10, concurrency: 200 }];
    r.headroom.peakRunningWorkers = 2;
    r.headroom.workersMax = 2;
    expect(verdict(r).limits).toBe('limits above 80 %: /run rate per 10 s 95 % (950 of 1 000), workers 100 % (2 of 2)');
    r.headroom.peakRunningWorkers = 1;
    r.headroom.operations = [];
    expect(verdict(r).limits).toBe('limits above 80 %: none');
  });

  test('unreachable from the answers alone (a blast, an older report): every answer 401/403/404 or a transport error', async () => {
    const r = await result();
    r.target = { kind: 'http', causes: 'inferred' };
    r.operations = { health: { ...r.operations.status!, byStatus: { 403: 7 }, transportErrors: 0 } };
    expect(verdict(r)).toMatchObject({
      status: 'INVALID',
      invalid: 'unreachable',
      cause: expect.stringMatching(/^every request answered 403: check --api-key/),
    });
    r.operations.health!.byStatus = { 403: 7, 503: 1 };
    expect(verdict(r).status).toBe('PASS');
  });

  test('the generator fell behind: more than 1 % and at least 3 arrivals dropped (late ones: verdict-lateness.test.ts)', async () => {
    const r = await result();
    r.arrivals = { ...r.arrivals, intended: 1000, late: 0, dropped: 10 };
    expect(verdict(r).status).toBe('PASS');
    r.arrivals.dropped = 11;
    expect(verdict(r)).toMatchObject({ status: 'INVALID', invalid: 'behind' });
    r.arrivals = { ...r.arrivals, intended: 5, late: 0, dropped: 2 };
    expect(verdict(r).status).toBe('PASS');
  });

  test('interrupted by the user (Ctrl-C): INVALID at that time, whatever the thresholds say; report.md says so', async () => {
    const r = await result(['jobs_completed > 10']);
    r.interrupted = { atMs: 1_234_567 };
    const cause = 'interrupted by the user at t=1 234 s; the figures cover the run up to then';
    expect(verdict(r)).toMatchObject({ status: 'INVALID', invalid: 'interrupted', cause, line: `INVALID: ${cause}` });
    const md = renderMarkdown(r);
    expect(md.split('\n')[0]).toBe(`INVALID: ${cause}  `);
    expect(md).toContain('**Interrupted by the user at t=1234 s**: every figure below covers the run up to then.');
  });

  test('numbers group by thousands', () => {
    expect([group(0), group(999), group(1000), group(1234567)]).toEqual(['0', '999', '1 000', '1 234 567']);
  });
});
