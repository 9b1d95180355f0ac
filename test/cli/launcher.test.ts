/**
 * The launcher (bin/loadlab.js): a command that simulates runs in a child Node with a larger young
 * generation, unless the Node options already choose one. A launcher killed outright (SIGKILL,
 * which it cannot pass on) leaves no run behind: the child stops as at Ctrl-C and writes its reports.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { relaunchFlags, SEMI_SPACE_MB } from '../../src/cli/young-generation.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-launcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

describe('which commands start again with a larger young generation', () => {
  const flag = `--max-semi-space-size=${SEMI_SPACE_MB}`;
  test.each([
    [['run', 'scenarios/steady-mix.yaml'], [flag]],
    [['plan', 'scenarios/capacity-plan.yaml'], [flag]],
    [['run', 'x.yaml', '--target', 'http://127.0.0.1:1/v2'], undefined],
    [['run', 'x.yaml', '--target=http://127.0.0.1:1/v2'], undefined],
    [['run', 'x.yaml', '--dry-run'], undefined],
    [['run', '--help'], undefined],
    [['serve'], undefined],
    [['report', 'reports/x'], undefined],
  ])('%j → %j', (argv, expected) => {
    expect(relaunchFlags(argv, [], undefined)).toEqual(expected);
  });

  test("the Node options' own young generation is kept (one process); other Node flags pass on", () => {
    expect(relaunchFlags(['run', 'x.yaml'], [], '--max-semi-space-size=16')).toBeUndefined();
    expect(relaunchFlags(['run', 'x.yaml'], ['--max-semi-space-size=8'], undefined)).toBeUndefined();
    expect(relaunchFlags(['run', 'x.yaml'], ['--enable-source-maps'], '--max-old-space-size=4096')).toEqual([
      '--enable-source-maps',
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
    ]);
  });
});

test.skipIf(process.platform !== 'linux')(
  'a launcher killed with SIGKILL: its run stops within seconds, reports written and marked interrupted',
  async () => {
    const out = join(dir, 'orphan');
    const env = { ...process.env };
    delete env.CI;
    delete env.GITHUB_STEP_SUMMARY;
    delete env.NODE_OPTIONS;
    const launcher = spawn('node', ['bin/loadlab.js', 'run', 'scenarios/diurnal-day.yaml', '--out', out], { env, stdio: 'ignore' });
    // The child (the run) catches SIGTERM once its run is under way (Linux: /proc shows caught signals).
    const runUnderWay = (): boolean => {
      const kids = readIfThere(`/proc/${launcher.pid}/task/${launcher.pid}/children`).trim();
      if (!kids) return false;
      const caught = /SigCgt:\s*([0-9a-f]+)/.exec(readIfThere(`/proc/${kids.split(' ')[0]}/status`))?.[1];
      return caught !== undefined && (BigInt(`0x${caught}`) & (1n << 14n)) !== 0n;
    };
    for (let waited = 0; !runUnderWay(); waited += 20) {
      if (waited > 60_000) throw new Error('the run did not start within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    launcher.kill('SIGKILL');
    const report = join(out, 'report.json');
    for (let waited = 0; !existsSync(join(out, 'metrics.om')); waited += 100) {
      if (waited > 30_000) throw new Error('the orphaned run did not stop within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = JSON.parse(readFileSync(report, 'utf8')) as { interrupted?: { atMs: number }; elapsedMs: number };
    expect(r.interrupted).toBeDefined();
    expect(r.elapsedMs).toBeLessThan(86_400_000);
  },
  120_000,
);
