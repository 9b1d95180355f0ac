/**
 * bench/generator-vs-peers (the HTTP generator beside its peers): its figures come from what the
 * arrival server saw (arrival-stats.ts) and from the CPU of each tool's whole process tree
 * (tree-cpu.ts), and the bench runs end to end through its command line. The peers themselves
 * (hey, loadtest, autocannon) are not needed here: loadlab and Node's raw-socket floor are.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { arrivalStats } from '../../bench/arrival-stats.js';
import { runMeasured } from '../../bench/tree-cpu.js';

/** Arrival times (ms) of `n` arrivals `gapMs` apart from `t0`, each shifted by `shift(k)`. */
const arrivals = (n: number, gapMs: number, shift: (k: number) => number = () => 0, t0 = 5000): Float64Array =>
  Float64Array.from({ length: n }, (_, k) => t0 + k * gapMs + shift(k));

describe('arrival statistics', () => {
  test('an even schedule at the rate: all served, none late, no spread', () => {
    const s = arrivalStats(arrivals(2000, 1), 1000, 2);
    expect(s.servedRatio).toBe(1);
    expect([s.lateP50Ms, s.lateP99Ms, s.lateMaxMs]).toEqual([0, 0, 0]);
    expect(s.cv100ms).toBe(0);
  });

  test('a 50 ms stall at 0.15 s: the late tail is in the first second and as late as the stall', () => {
    // Arrivals 150–199 wait for the stall to end at 0.2 s, then go out together (in the next 100 ms).
    const s = arrivalStats(
      arrivals(2000, 1, (k) => (k >= 150 && k < 200 ? 200 - k : 0)),
      1000,
      2,
    );
    expect(s.lateMaxMs).toBe(50);
    expect(s.lateP99Ms).toBeGreaterThan(0);
    expect(s.tailInFirstSecond).toBe(1);
    expect(s.cv100ms).toBeGreaterThan(0);
  });

  test('a tool that sends 10 % too many is above 1 and early', () => {
    const s = arrivalStats(arrivals(2200, 1 / 1.1), 1000, 2);
    expect(s.servedRatio).toBeCloseTo(1.1, 5);
    expect(s.lateP50Ms).toBeLessThan(0);
  });
});

test('tree CPU counts the descendants a command waited for', async () => {
  // A child that waits for a grandchild burning 300 ms of CPU (by its own clock, not the wall's).
  const burn = 'const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) < 300000);';
  const child = `require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(burn)}], { stdio: 'inherit' })`;
  const r = await runMeasured(process.execPath, ['-e', child]);
  expect(r.exitCode).toBe(0);
  expect(r.cpuMs).toBeGreaterThanOrEqual(290);
});

test('the bench runs end to end: loadlab and the raw-socket floor at 200/s for 1 s, judged at the server', () => {
  const r = spawnSync(
    process.execPath,
    ['dist/bench/generator-vs-peers.js', '--seconds', '1', '--rounds', '1', '--rates', '200', '--tools', 'loadlab,net-floor'],
    { encoding: 'utf8', timeout: 120_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  const row = (tool: string) =>
    r.stdout
      .split('\n')
      .find((l) => l.startsWith('|') && l.includes(`| ${tool} |`))
      ?.split('|')
      .map((c) => c.trim());
  for (const tool of ['loadlab', 'net-floor']) {
    const cells = row(tool);
    expect(cells, r.stdout).toBeDefined();
    // | rate | tool | served / intended | lateness | CV | CPU per request | net of fixed cost |
    expect(Number(cells![3])).toBeGreaterThanOrEqual(0.99);
    expect(cells![6]).toMatch(/^[\d ]+ µs$/);
  }
  expect(r.stdout).toMatch(/Fixed cost \(median CPU of a 1 s run at 10\/s\): loadlab \d+\.\d\d s, net-floor \d+\.\d\d s/);
}, 120_000);

test('an unknown tool is refused with exit 2, naming it and the known ones', () => {
  const r = spawnSync(process.execPath, ['dist/bench/generator-vs-peers.js', '--tools', 'wrk'], { encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('--tools: unknown tool "wrk" (known: loadlab, autocannon, loadtest, hey, undici-floor, net-floor)');
});
