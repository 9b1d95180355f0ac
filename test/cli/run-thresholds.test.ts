/** `loadlab run` as a CI gate: typos exit 2 before anything is sent, selectors, `every` windows, abortOnFail (exit 99). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { evaluateThresholds } from '../../src/report/thresholds.js';
import type { RunResult } from '../../src/report/run-result.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-thr-'));
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 120_000 });

/** 2 jobs/s for 10 min on 4 warm workers (20 jobs/s), plus a burst of 40 jobs in the second at 300 s. */
function burstScenario(thresholds: unknown[]): string {
  const f = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
  const poll = { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1, maxMs: 200, jitter: 0 } };
  writeFileSync(
    f,
    JSON.stringify({
      name: 'gate',
      durationMs: 600_000,
      drainMs: 30_000,
      endpoint: { workersMin: 4, workersMax: 4, jobDurationMs: 200, workload: { failureProbability: 0.2 } },
      traffic: [
        { name: 'steady', arrival: { process: 'constant', ratePerSec: 2 }, client: poll },
        { name: 'burst', arrival: { process: 'spike', basePerSec: 0, spikePerSec: 40, atMs: 300_000, durationMs: 1000 }, client: poll },
      ],
      thresholds,
    }),
  );
  return f;
}
const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;

describe('thresholds as a CI gate', () => {
  test('typos in thresholds and keys exit 2 before anything is sent, naming file, path, name and suggestion', () => {
    const f = burstScenario([
      'limited{rnu} == 0',
      'requests{stauts=500} < 10',
      'jobs_failed{flow=burts} == 0',
      'p99_ms{runn} < 100',
      'limited{status=503} == 0',
    ]);
    // A target nothing listens on: a run that started would fail with a connection error, not exit 2.
    const r = cli('run', f, '--target', 'http://127.0.0.1:9/v2', '--out', join(dir, 'typo'));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${f}: thresholds.0: unknown operation "rnu" in "limited{rnu} == 0"; did you mean "run"?`);
    expect(r.stderr).toContain(`${f}: thresholds.1: unknown selector kind "stauts"`);
    expect(r.stderr).toContain(`${f}: thresholds.2: unknown flow "burts" in "jobs_failed{flow=burts} == 0"; did you mean "burst"?`);
    expect(r.stderr).toContain(`${f}: thresholds.3: unknown operation "runn" in "p99_ms{runn} < 100"; did you mean "run"?`);
    // limited counts 429s only: a status selector is refused, not ignored.
    expect(r.stderr).toContain(
      `${f}: thresholds.4: metric "limited" takes only {operation=…}, not {status=503} (in "limited{status=503} == 0"): limited counts 429 answers; requests{status=…} counts the answers of any status`,
    );
    expect(existsSync(join(dir, 'typo'))).toBe(false);
  }, 120_000);

  test('a window threshold fails on a burst the whole-run one hides; selectors pick their flow', () => {
    const out = join(dir, 'win');
    const r = cli('run', burstScenario(['turnaround_p95_ms < 1000', 'turnaround_p95_ms < 1000 every 10s', 'jobs{flow=burst} >= 40']), '--out', out);
    expect(r.status, r.stderr).toBe(99);
    const rep = report(out);
    expect(rep.version).toBe(3);
    const [whole, every, burst] = rep.thresholds;
    expect(whole!.ok).toBe(true);
    expect(every).toMatchObject({ ok: false, window: { fromMs: 300_000, toMs: 310_000 } });
    expect(every!.window!.value).toBeGreaterThan(1000);
    expect(burst).toMatchObject({ ok: true, value: rep.flows.burst!.sessions });
    // Each flow's own jobs: the selector is honoured, not ignored.
    const [a, b] = evaluateThresholds(rep, ['jobs_failed{flow=steady} >= 0', 'jobs_failed{flow=burst} >= 0']).map((t) => t.value);
    expect(a).toBe(rep.flows.steady!.outcomes.FAILED);
    expect(b).toBe(rep.flows.burst!.outcomes.FAILED);
    expect(a).not.toBe(b);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/turnaround_p95_ms < 1000 every 10s/);
  }, 120_000);

  test('abortOnFail stops the run within one window of the breach; reports written, exit 99', () => {
    const out = join(dir, 'abort');
    const r = cli('run', burstScenario([{ expr: 'turnaround_p95_ms < 1000 every 10s', abortOnFail: true }, 'jobs_completed > 0']), '--out', out);
    expect(r.status, r.stderr).toBe(99);
    const rep = report(out);
    expect(rep.aborted).toEqual({ threshold: 'turnaround_p95_ms < 1000 every 10s', atMs: 310_000 });
    expect(rep.elapsedMs).toBe(310_000);
    expect(rep.thresholds[0]).toMatchObject({ ok: false, window: { fromMs: 300_000 } });
    expect(rep.arrivals.intended).toBeLessThan(700);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  }, 120_000);
});
