/**
 * How far ahead a `--start-at` instant (or a `--start-delay`) must be for the CLI processes of a
 * test to start before it: the instant is read when a process starts, and one that started late
 * runs late with a warning (more than 5 s late: exit 2). A fixed lead is seconds of waiting on a
 * quiet machine and still too short on a loaded one (load 14 on 2 cores took over 4 s to start
 * one CLI), so the lead follows what starting the CLI takes here and now.
 */
import { spawn } from 'node:child_process';

/**
 * Wall ms for `n` CLI processes started at once to read `scenario` and end: `loadlab run
 * --dry-run`, which sends nothing (its target is a closed port).
 */
export async function cliStartUpMs(scenario: string, n = 1): Promise<number> {
  const t0 = Date.now();
  const codes = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<number | null>((resolve) => {
          const args = ['bin/loadlab.js', 'run', scenario, '--target', 'http://127.0.0.1:9/v2', '--dry-run'];
          spawn('node', args, { stdio: 'ignore', env: { ...process.env, CI: 'true' } }).on('close', resolve);
        }),
    ),
  );
  if (codes.some((c) => c !== 0)) throw new Error(`loadlab run ${scenario} --dry-run exited ${codes.join(', ')}`);
  return Date.now() - t0;
}

/** The lead (ms) for `n` processes: thrice their start-up just now, and at least `floorMs`. */
export async function startLeadMs(scenario: string, n: number, floorMs = 4000): Promise<number> {
  return Math.max(floorMs, 3 * (await cliStartUpMs(scenario, n)));
}

/** A whole-second instant (the instant as given is the instant kept) at least `leadMs` from now. */
export const wholeSecondAfter = (leadMs: number): number => Math.ceil((Date.now() + leadMs) / 1000) * 1000;
