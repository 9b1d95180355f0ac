/**
 * GPU types in priority order, billed (through `loadlab run`, in process). docs (RunPod, 2026): an
 * endpoint lists up to 3 GPU types in priority order; a worker that finds no capacity on the first
 * starts on the next that has some, "billed at that type's price". The scenario: two jobs at once
 * on a cold endpoint (coldStartMs 10 s, job 2 s, idle timeout 5 s, QUEUE_DELAY 1 s),
 * `gpus: [H100-PRO, A100]` with room for one H100-PRO: one worker on each type, each billed 2 s
 * running + 5 s idle = 7 s, at its type's price.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import type { RunResult } from '../../src/report/run-result.js';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';
import { twoColdJobs } from '../helpers/two-cold-jobs.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-gpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(name: string, change: (s: Record<string, any>) => void = () => {}): string {
  const s = { ...twoColdJobs(`gpus-${name}`, { gpus: ['H100-PRO', 'A100'], hostCapacity: { 'H100-PRO': 1 } }), slo: ['jobs_completed >= 2'] };
  change(s);
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, stringify(s));
  return f;
}

const cli = (...lines: string[][]): CliResult[] => cliBatch(lines.map((args) => ({ args })));
const reportOf = (out: string): RunResult => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
const ok = (r: CliResult) => expect(r.status, r.stderr).toBe(0);

describe('endpoint.gpus: each worker billed at the price of the GPU type it started on', () => {
  test('docs (fallback "billed at that type\'s price"): two jobs at once, room for one H100-PRO: 7 s at $0.00116 and 7 s at $0.00076', () => {
    const out = join(dir, 'two');
    const [r] = cli(['run', scenario('two'), '--out', out]) as [CliResult];
    ok(r);
    const w = reportOf(out).workers!;
    expect(w.billedSeconds).toEqual({ flex: 14, active: 0 });
    expect(w.byGpu!.map((g) => [g.gpu, g.started, g.billedSeconds.flex, g.cost?.perRun])).toEqual([
      ['H100-PRO', 1, 7, 0.00812],
      ['A100', 1, 7, 0.00532],
    ]);
    expect(w.cost!.perRun).toBe(0.01344);
    expect(w.cost!.prices).toMatchObject({ gpu: 'H100-PRO', priceBook: '2026' });

    // Where a user looks: report.md (and report.html, its tables) and the summary on stdout, a line per type.
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain("| prices per second flex / active | each GPU type's (below; price book 2026: 2026-05-13) |");
    expect(md).toContain('| H100-PRO | 1 | 2 / 1 / 10 / 0 / 0 | 7 / 0 | $0.00116 / $0.00116 | $0.0081 |');
    expect(md).toContain('| A100 | 1 | 2 / 0 / 10 / 0 / 0 | 7 / 0 | $0.00076 / $0.00076 | $0.0053 |');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/<td>H100-PRO<\/td>\s*<td>1<\/td>/);
    expect(html).toMatch(/<td>A100<\/td>[\s\S]*?<td>\$0\.0053<\/td>/);
    expect(r.stdout).toContain('cost $0.0134 ($3.7218 per hour, $6.7200 per 1000 jobs; by GPU type, price book 2026)');
    expect(r.stdout).toContain(
      '\n    H100-PRO: 1 started; billed 7 s flex, 0 s active; cost $0.0081\n    A100: 1 started; billed 7 s flex, 0 s active; cost $0.0053\n',
    );
  });

  test('room on no type: the second worker waits throttled, unbilled; the H100-PRO worker runs both jobs', () => {
    const out = join(dir, 'none');
    const [r] = cli(['run', scenario('none', (s) => (s.endpoint.hostCapacity = { 'H100-PRO': 1, A100: 0 })), '--out', out]) as [CliResult];
    ok(r);
    const w = reportOf(out).workers!;
    // The H100-PRO worker runs both jobs (10–12 s, 12–14 s), then its idle tail: 9 s billed. The
    // second worker, wanted at 1 s (QUEUE_DELAY), waits for a host until the run ends at 14 s.
    expect(w.byGpu!.map((g) => [g.gpu, g.started, g.billedSeconds.flex])).toEqual([
      ['H100-PRO', 1, 9],
      ['A100', 0, 0],
    ]);
    expect(w.started).toBe(2);
    expect(w.secondsByState.throttled).toBe(13);
    expect(w.billedSeconds.flex).toBe(9);
  });

  test('loadlab: active workers (workersMin 2) on H100-PRO and A100 share the active seconds by the time each held its slot', () => {
    const out = join(dir, 'active');
    const [r] = cli(['run', scenario('active', (s) => (s.endpoint.workersMin = 2)), '--out', out]) as [CliResult];
    ok(r);
    const w = reportOf(out).workers!;
    const secs = Math.ceil(reportOf(out).elapsedMs / 1000);
    expect(w.billedSeconds).toEqual({ active: 2 * secs, flex: 0 });
    expect(w.byGpu!.map((g) => [g.gpu, g.billedSeconds.active, g.cost?.perRun])).toEqual([
      ['H100-PRO', secs, Math.round(secs * 0.00116 * 1e6) / 1e6],
      ['A100', secs, Math.round(secs * 0.00076 * 1e6) / 1e6],
    ]);
  });

  test('--gpu or plan.gpu beside endpoint.gpus, or a type the price book lacks, exit 2 naming the field', () => {
    const [a, b, c] = cli(
      ['run', scenario('flag'), '--gpu', 'L4', '--out', join(dir, 'x')],
      ['run', scenario('plan-gpu', (s) => (s.plan = { gpu: 'L4' })), '--out', join(dir, 'y')],
      ['run', scenario('unknown', (s) => ((s.endpoint.gpus = ['H100-PRO', 'T4']), (s.endpoint.hostCapacity = {}))), '--out', join(dir, 'z')],
    ) as [CliResult, CliResult, CliResult];
    expect([a.status, b.status, c.status]).toEqual([2, 2, 2]);
    expect(a.stderr).toContain('--gpu: not with endpoint.gpus (H100-PRO, A100)');
    expect(b.stderr).toMatch(/plan-gpu\.yaml: plan\.gpu: not with endpoint\.gpus/);
    expect(c.stderr).toMatch(/unknown\.yaml: endpoint\.gpus: unknown GPU "T4" in price book 2026/);
  });
});
