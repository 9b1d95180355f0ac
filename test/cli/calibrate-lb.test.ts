/**
 * A load-balancing endpoint calibrated over HTTP, end to end: `loadlab serve` in real time stands
 * in for it (test/fixtures/calibrate-lb-known.yaml: lognormal job times and cold starts, 2
 * requests per worker, up to 8 workers), `loadlab run --target` sends custom-worker requests at
 * its `/lb/{id}` base with /health read every 100 ms (about 35 s), and `loadlab calibrate` finds it
 * again from the requests' times and the workers their `X-Runpod-Worker-Id` named. Wall time's
 * jitter and the way there and back lengthen the times a little: the bounds are looser than the
 * virtual-time test's (test/calibrate/balancer-fit.test.ts). And what cannot be fitted is refused.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadlab, probeRun } from './probe-run.js';

const KNOWN = 'test/fixtures/calibrate-lb-known.yaml';
const { dir, runDir } = probeRun(KNOWN, 'loadlab-calibrate-lb-', 'probe', (base) => `${base.replace(/\/v2$/, '')}/lb/known-lb`);

describe('load-balancing probe → calibrate', () => {
  it('finds the job times, cold starts, workerConcurrency and workersMax, and writes a load-balancing scenario', () => {
    const out = loadlab(['calibrate', runDir]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/a load-balancing endpoint: 201 requests served, \d+ of 201 http ones timed as jobs, \d+ workers named \(X-Runpod-Worker-Id\)/);
    const c = JSON.parse(readFileSync(join(runDir, 'calibration.json'), 'utf8'));
    const near = (got: number, want: number, tol: number) => expect(Math.abs(got / want - 1), `${got} vs ${want}`).toBeLessThanOrEqual(tol);
    near(c.jobDurationMs.p50, 150, 0.2);
    near(c.jobDurationMs.p95, 250, 0.3);
    expect(c.jobDurationMs.samples).toBeGreaterThanOrEqual(20);
    near(c.coldStartMs.p50, 300, 0.25);
    expect(c.coldStartMs.samples).toBeGreaterThanOrEqual(15);
    expect(c.workerConcurrency).toMatchObject({ value: 2, reached: true });
    expect(c.workersMax.value).toBeGreaterThanOrEqual(6);
    expect(c.workersMax.value).toBeLessThanOrEqual(8);
    // Its workers stop at their idle timeout (600 ms), seen within about a /health period.
    expect(Math.abs(c.idleTimeoutMs.value - 600)).toBeLessThanOrEqual(150);
    const yaml = parse(readFileSync(join(runDir, 'calibrated.yaml'), 'utf8'));
    expect(yaml.endpoint).toMatchObject({ type: 'load-balancer', workerConcurrency: 2, scaler: { type: 'REQUEST_COUNT', value: 2 } });
    expect(yaml.endpoint.jobDurationMs.dist).toBe('lognormal');
    expect(readFileSync(join(runDir, 'calibration.md'), 'utf8')).toContain('a **load-balancing endpoint** (`type: load-balancer`)');
    expect(readFileSync(join(runDir, 'calibration.html'), 'utf8')).toContain('load-balancing endpoint');
    // calibrated.yaml runs: the fitted endpoint on the embedded simulator.
    const again = loadlab(['run', join(runDir, 'calibrated.yaml'), '--out', join(dir, 'again')]);
    expect(again.status, again.stderr).toBe(0);
  });

  it('a run in which no worker answered, or no answer named its worker: exit 2 and the reason', () => {
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    const write = (name: string, observed: unknown): string => {
      const d = join(dir, name);
      mkdirSync(d);
      writeFileSync(join(d, 'report.json'), JSON.stringify({ ...report, observed }));
      return d;
    };
    const none = write('no-requests', {
      ...report.observed,
      balancer: { ...report.observed.balancer, count: 0, rows: [] },
      workers: { ...report.observed.workers, rows: [] },
    });
    const noIds = write('no-worker-ids', { ...report.observed, workers: { ...report.observed.workers, rows: [] } });
    const a = loadlab(['calibrate', none]);
    expect([a.status, a.stderr]).toEqual([
      2,
      expect.stringContaining('a run against a load-balancing endpoint in which no worker answered a request: nothing to fit'),
    ]);
    const b = loadlab(['calibrate', noIds]);
    expect([b.status, b.stderr]).toEqual([2, expect.stringContaining('no answer of the load-balancing endpoint carried an X-Runpod-Worker-Id header')]);
  });
});
