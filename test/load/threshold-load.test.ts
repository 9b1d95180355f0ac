/** Thresholds and scenario keys are checked at load: a typo names file, path, bad name and the nearest valid one. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-th-'));
const base = {
  name: 'x',
  durationMs: 60_000,
  drainMs: 10_000,
  traffic: [
    { name: 'batch', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } },
    { name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'health' } },
  ],
};

function load(extra: Record<string, unknown>) {
  const f = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, JSON.stringify({ ...base, ...extra }));
  return loadScenarioFile(f);
}
const issues = (thresholds: unknown[]) => {
  const l = load({ thresholds });
  return l.ok ? [] : l.issues.map((i) => `${i.path}: ${i.message}`);
};

describe('thresholds checked at load', () => {
  test('valid forms load', () => {
    const l = load({
      thresholds: [
        'p99_ms{run} < 2000',
        'p95_ms{operation=status} < 500 every 60s',
        'jobs_failed{flow=batch} == 0',
        'jobs{flow=chat,status=COMPLETED} > 1',
        'requests{status=429} < 10',
        'turnaround_p95_ms{flow=batch} < 30000',
        'queue_delay_p99_ms < 100',
        'execution_p50_ms{flow=batch} < 5000 every 10s',
        { expr: 'error_rate < 0.1', abortOnFail: true, delayAbortEvalMs: 20_000 },
      ],
    });
    expect(l.ok).toBe(true);
  });
  test('unknown metric, operation, flow and status: path, bad name, suggestion', () => {
    expect(
      issues(['p99_ms{run} < 1', 'limited{rnu} == 0', 'jobs_failed{flow=bach} == 0', 'p99_ms{runn} < 5', 'jobs{status=COMPLETD} > 1', 'jobs_complete > 1']),
    ).toEqual([
      'thresholds.1: unknown operation "rnu" in "limited{rnu} == 0"; did you mean "run"?',
      'thresholds.3: unknown operation "runn" in "p99_ms{runn} < 5"; did you mean "run"?',
      'thresholds.4: unknown status "COMPLETD" in "jobs{status=COMPLETD} > 1"; did you mean "COMPLETED"?',
      'thresholds.5: unknown metric "jobs_complete" in "jobs_complete > 1"; did you mean "jobs_completed"?',
      'thresholds.2: unknown flow "bach" in "jobs_failed{flow=bach} == 0"; did you mean "batch"?',
    ]);
  });
  test('a selector the metric does not honour is rejected; so is a bad selector kind', () => {
    expect(issues(['requests{stauts=200} < 10'])[0]).toBe(
      'thresholds.0: unknown selector kind "stauts" in "requests{stauts=200} < 10"; kinds: operation, flow, status, cause',
    );
    expect(issues(['jobs_failed{run} == 0'])[0]).toMatch(/^thresholds\.0: metric "jobs_failed" takes only \{flow=…\}, not \{operation=run\}/);
    expect(issues(['webhooks_lost{flow=batch} == 0'])[0]).toMatch(/takes no selector/);
    expect(issues(['requests{status=ok} < 1'])[0]).toMatch(/not an HTTP status code/);
    expect(issues(['balancer_failed{cause=no-worker} == 0'])[0]).toMatch(/unknown cause "no-worker".*did you mean "no-workers"/);
    expect(issues(['requests{cause=rate} == 0'])[0]).toMatch(/metric "requests" takes only \{operation=…\}, \{status=…\}, not \{cause=rate\}/);
  });
  test('every: a multiple of 10 s, of the stored window, on a metric with windows', () => {
    expect(issues(['p95_ms{run} < 500 every 15s'])[0]).toMatch(/multiple of the 10 s recording window/);
    expect(issues(['jobs_failed == 0 every 60s'])[0]).toMatch(/cannot be checked per window/);
    const long = load({ durationMs: 86_400_000, thresholds: ['p95_ms{run} < 500 every 10s'] });
    expect(long.ok ? [] : long.issues.map((i) => i.message)).toEqual([expect.stringMatching(/must be a multiple of 60 s/)]);
  });
  test('object form: the path ends in expr; unknown keys suggest the known one', () => {
    expect(issues([{ expr: 'p99_ms{rnu} < 1', abortOnFail: true }])[0]).toMatch(/^thresholds\.0\.expr: unknown operation "rnu"/);
    expect(issues([{ expr: 'p99_ms < 1', abortOnFail: true, delayAbortEvalMS: 5 }])).toEqual([
      'thresholds.0.delayAbortEvalMS: unknown key "delayAbortEvalMS"; did you mean "delayAbortEvalMs"?',
    ]);
  });
  test('unknown scenario keys anywhere suggest the nearest known key', () => {
    const l = load({ traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 1 }, client: { behavior: 'health' } }], durationMS: 5 });
    const msgs = l.ok ? [] : l.issues.map((i) => `${i.path}: ${i.message}`);
    expect(msgs).toContain('durationMS: unknown key "durationMS"; did you mean "durationMs"?');
    expect(msgs).toContain('traffic.0.client.behaviour: unknown key "behavior"; did you mean "behaviour"?');
  });
});
