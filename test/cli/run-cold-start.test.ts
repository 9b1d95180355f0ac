/** `cold_start_*` thresholds through `loadlab run`: exit 99 / 0 in-process; refused with exit 2 on a target that cannot see cold starts. */
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-cold-'));

/** A job every 10 s for 40 s from 0 workers (test/load/cold-start.test.ts): waits 5000, 0, 5000, 0 ms. */
function scenario(name: string, thresholds: string[]): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name: 'cold',
      durationMs: 40_000,
      drainMs: 30_000,
      endpoint: { workersMin: 0, workersMax: 1, coldStartMs: 5000, idleTimeoutMs: 5000, jobDurationMs: 1000 },
      traffic: [
        {
          name: 'x',
          arrival: { process: 'constant', ratePerSec: 0.1 },
          client: { behaviour: 'run-poll', poll: { baseMs: 100, factor: 1, maxMs: 100, jitter: 0 } },
        },
      ],
      thresholds,
    }),
  );
  return f;
}

describe('cold_start thresholds in loadlab run', () => {
  test('p95 of 5000 ms fails "< 1000" (exit 99) and passes "< 10000"; report.md shows it per flow', () => {
    // Both runs in one child process (test/helpers/cli-batch.ts).
    const [fail, pass] = cliBatch([
      { args: ['run', scenario('fail', ['cold_start_p95_ms{flow=x} < 1000']), '--out', join(dir, 'fail')] },
      { args: ['run', scenario('pass', ['cold_start_p95_ms{flow=x} < 10000']), '--out', join(dir, 'pass')] },
    ]) as [CliResult, CliResult];
    expect(fail.status, fail.stderr).toBe(99);
    expect(fail.stdout).toContain('cold_start_p95_ms{flow=x} < 1000 (got 5000)');
    expect(pass.status, pass.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(join(dir, 'pass', 'report.json'), 'utf8'));
    expect(rep.flows.x.jobs.coldStartMs.count).toBe(4);
    expect(readFileSync(join(dir, 'pass', 'report.md'), 'utf8')).toMatch(/\| x \|.*\| 0 \/ 5000 \/ 5000 \/ 5000 \|/);
  }, 120_000);

  test('with --target (http or lockstep) a cold_start threshold exits 2 before anything is sent', () => {
    // Nothing listens on port 1: a run that started would fail with a connection error, not exit 2.
    const extras = [[], ['--lockstep']];
    const f = scenario('http', ['jobs_failed == 0', 'cold_start_p95_ms{flow=x} < 10000']);
    const rs = cliBatch(extras.map((extra) => ({ args: ['run', f, '--target', 'http://127.0.0.1:1', ...extra, '--out', join(dir, `http${extra.length}`)] })));
    for (const [i, extra] of extras.entries()) {
      const out = join(dir, `http${extra.length}`);
      const r = rs[i]!;
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `cold_start needs the embedded simulator (in-process); target ${extra.length ? 'lockstep' : 'http'} cannot observe cold starts`,
      );
      expect(r.stderr).toContain('"cold_start_p95_ms{flow=x} < 10000"');
      expect(existsSync(out)).toBe(false);
    }
  }, 120_000);
});
