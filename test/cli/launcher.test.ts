/**
 * The launcher (bin/loadlab.js): a command that simulates runs in a child Node with a larger young
 * generation, unless the Node options already choose one. A launcher killed outright (SIGKILL,
 * which it cannot pass on) leaves no run behind: the child stops as at Ctrl-C and writes its reports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { relaunchFlags, SEMI_SPACE_MB } from '../../src/cli/young-generation.js';
import { ended, firstChild } from '../helpers/proc-children.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-launcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let launcher: ChildProcess | undefined;
let orphan: number | undefined;
// A run left behind by a failed test would take a core from the rest of the suite for half a minute.
afterAll(() => {
  if (launcher?.exitCode === null) launcher.kill('SIGKILL'); // its child then stops itself (watchParent)
  if (orphan !== undefined && !ended(orphan)) process.kill(orphan, 'SIGKILL');
});

test.skipIf(process.platform !== 'linux')(
  'a launcher killed with SIGKILL: its run stops within seconds, reports written and marked interrupted',
  async () => {
    const out = join(dir, 'orphan');
    const env = { ...process.env };
    delete env.CI;
    delete env.GITHUB_STEP_SUMMARY;
    delete env.NODE_OPTIONS;
    // A simulated day: ~30 s of CPU, longer than the run lasts here on any machine.
    launcher = spawn('node', ['bin/loadlab.js', 'run', 'scenarios/diurnal-day.yaml', '--out', out], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    launcher.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
    // Under way (its SIGTERM handling is the run's) once the first plain progress line shows, after
    // 10 s of wall time: a launcher killed sooner, while its child still loads (seconds on a loaded
    // machine), leaves a child that Node's own SIGTERM handling ends without reports. Wall-clock
    // deadlines, wide enough for a busy machine.
    const startBy = Date.now() + 60_000;
    while (!/^traffic +\d+%/m.test(stderr)) {
      if (launcher.exitCode !== null) throw new Error(`the launcher exited (${launcher.exitCode}) before its run was under way: ${stderr}`);
      if (Date.now() > startBy) throw new Error(`no progress line within 60 s: ${stderr}`);
      await sleep(100);
    }
    orphan = firstChild(launcher.pid!);
    expect(orphan).toBeDefined();
    launcher.kill('SIGKILL');
    // The orphan notices within a second (cli/young-generation.ts watchParent), stops, writes its reports and ends.
    const stopBy = Date.now() + 30_000;
    while (!ended(orphan!)) {
      if (Date.now() > stopBy) throw new Error('the orphaned run did not stop within 30 s');
      await sleep(100);
    }
    const r = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { interrupted?: { atMs: number }; elapsedMs: number };
    expect(r.interrupted).toBeDefined();
    expect(r.elapsedMs).toBeLessThan(86_400_000);
    expect(readFileSync(join(out, 'metrics.om'), 'utf8')).toMatch(/# EOF\n$/);
  },
  120_000,
);
