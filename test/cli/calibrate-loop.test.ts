/**
 * The loop for a user's own endpoint, end to end: a probe run against `loadlab serve` standing in
 * for it (a known endpoint: lognormal job times and cold starts, an idle timeout, workersMax), at
 * real speed with times scaled down — `--speed` would put the /health instants and the reported
 * delayTime/executionTime on different clocks, which no real endpoint does — then `loadlab
 * calibrate` on its directory, then `loadlab plan` on calibrated.yaml against a plan on the truth.
 * And every input calibrate cannot fit is refused with exit 2 and the reason.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBatch } from '../helpers/cli-batch.js';
import { loadlab, probeRun } from './probe-run.js';

const KNOWN = 'test/fixtures/calibrate-known.yaml';
const { dir, runDir } = probeRun(KNOWN, 'loadlab-calibrate-', 'probe');

describe('probe → calibrate → plan', () => {
  it('calibrate finds the known endpoint again: job times, cold starts, idle timeout, workersMax', () => {
    const out = loadlab(['calibrate', runDir]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain(`next: loadlab plan ${join(runDir, 'calibrated.yaml')}`);
    const c = JSON.parse(readFileSync(join(runDir, 'calibration.json'), 'utf8'));
    const near = (got: number, want: number, tol: number) => expect(Math.abs(got / want - 1), `${got} vs ${want}`).toBeLessThanOrEqual(tol);
    expect(c.jobDurationMs.model).toBe('lognormal');
    near(c.jobDurationMs.p50, 150, 0.1);
    near(c.jobDurationMs.p95, 250, 0.2);
    expect(c.jobDurationMs.ks).toBeLessThanOrEqual(c.jobDurationMs.ksLimit);
    near(c.coldStartMs.p50, 300, 0.25);
    expect(c.coldStartMs.samples).toBeGreaterThanOrEqual(15);
    near(c.idleTimeoutMs.value, 600, 0.25);
    expect(c.workersMax).toMatchObject({ value: 8, reached: true });
    const md = readFileSync(join(runDir, 'calibration.md'), 'utf8');
    expect(md).toContain('| jobDurationMs | lognormal');
    expect(md).toContain('## coldStartMs: observed against fitted');
    const html = readFileSync(join(runDir, 'calibration.html'), 'utf8');
    expect(html).toContain('id="chart-jobDurationMs"');
    expect(html).toContain('id="chart-coldStartMs"');
    const yaml = readFileSync(join(runDir, 'calibrated.yaml'), 'utf8');
    expect(yaml).toMatch(/jobDurationMs: \{ dist: lognormal, medianMs: [\d.]+, p95Ms: [\d.]+ \}/);
    expect(yaml).toContain('name: probe');
  });

  it('plan on calibrated.yaml recommends the workersMax plan on the true endpoint does (±1)', () => {
    const plans = [KNOWN, join(runDir, 'calibrated.yaml')].map((f, i) => {
      const out = join(dir, `plan-${i}`);
      const p = loadlab(['plan', f, '--out', out]);
      expect(p.status, p.stderr).toBe(0);
      return JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8')).recommendation.workersMax as number;
    });
    expect(plans[0]).toBeGreaterThan(1);
    expect(Math.abs(plans[1]! - plans[0]!)).toBeLessThanOrEqual(1);
  });

  it('what cannot be fitted: exit 2 and the reason', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    const write = (name: string, r: unknown): string => {
      const d = join(dir, name);
      mkdirSync(d);
      writeFileSync(join(d, 'report.json'), JSON.stringify(r));
      return d;
    };
    const none = write('none-completed', { ...report, observed: { ...report.observed, executionMs: { count: 0, samples: [] } } });
    const inProcess = join(dir, 'in-process');
    const moved = write('moved', { ...report, scenario: { ...report.scenario, file: 'nowhere/gone.yaml' } });
    const [a, b, c, d, e] = cliBatch([
      { args: ['calibrate', empty] },
      { args: ['run', KNOWN, '--out', inProcess] },
      { args: ['calibrate', inProcess] },
      { args: ['calibrate', none] },
      { args: ['calibrate', moved] },
    ]);
    expect([a!.status, a!.stderr]).toEqual([2, expect.stringContaining('a directory without report.json')]);
    expect(b!.status).toBe(0);
    expect([c!.status, c!.stderr]).toEqual([2, expect.stringContaining('a run on the embedded simulator: nothing to fit')]);
    expect([d!.status, d!.stderr]).toEqual([2, expect.stringContaining('no completed job')]);
    expect([e!.status, e!.stderr]).toEqual([2, expect.stringContaining('nowhere/gone.yaml: not found (give it with --scenario FILE)')]);
  });
});
