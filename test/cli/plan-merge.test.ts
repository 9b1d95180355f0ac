/**
 * `loadlab plan --shard I/N` and `loadlab plan merge` through the built CLI: three shard processes
 * (one taking its index from JOB_COMPLETION_INDEX, one on two threads) merged in a shuffled order
 * write plan.json, plan.md and plan.html byte-identical to one `loadlab plan` of the same scenario
 * and flags; a shard writes only a partial plan.json; merge exits 99 when no point meets the SLOs,
 * and 2 when the inputs are not every shard of one plan exactly once.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cliBatch, type CliCase, type CliResult } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = 'test/fixtures/plan-small.yaml';
// Small: 2 grid lines × 5 workersMax × 2 seeds of a 2-minute scenario, a few seconds in all.
const flags = (seeds = 2) => ['plan', FILE, '--workers-max', '1..5', '--seeds', String(seeds), '--grid', 'idleTimeoutMs=1000,5000', '--jobs', '1'];
const FLAGS = flags();

const baseEnv: NodeJS.ProcessEnv = { ...process.env };
for (const k of ['LOADLAB_SHARDS', 'JOB_COMPLETION_INDEX']) delete baseEnv[k];
/** Command lines run in order in one child process (test/helpers/cli-batch.ts); `env` per line. */
const loadlab = (...cases: CliCase[]): CliResult[] => cliBatch(cases, baseEnv);
const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');
const ok = (r: CliResult | undefined, code = 0) => expect(r?.status, r?.stderr).toBe(code);

describe('loadlab plan --shard, then plan merge', () => {
  const s = [0, 1, 2].map((i) => join(dir, `s${i}`));

  test('three shards merged equal the unsharded plan, byte for byte', () => {
    const [whole, s0, env1, s2, m, top] = loadlab(
      { args: [...FLAGS, '--out', join(dir, 'whole')] },
      { args: [...FLAGS.slice(0, -2), '--jobs', '2', '--shard', '0/3', '--out', s[0]!] },
      { args: [...FLAGS, '--out', s[1]!], env: { LOADLAB_SHARDS: '3', JOB_COMPLETION_INDEX: '1' } },
      { args: [...FLAGS, '--shard', '2/3', '--out', s[2]!] },
      { args: ['plan', 'merge', s[2]!, s[0]!, join(s[1]!, 'plan.json'), '--out', join(dir, 'merged')] },
      // `loadlab merge` recognises partial plans and joins them the same way.
      { args: ['merge', s[1]!, s[2]!, s[0]!, '--out', join(dir, 'merged-top')] },
    );
    for (const r of [whole, s0, env1, s2]) ok(r);
    expect(env1!.stdout).toMatch(/^PARTIAL PLAN: shard 1 of 3 \(LOADLAB_SHARDS with JOB_COMPLETION_INDEX\): 3 of 10 grid points × 2 seeds/);

    // A shard writes only its partial plan.json: its points (p mod 3 = I) and no recommendation.
    expect(readdirSync(s[2]!)).toEqual(['plan.json']);
    const part = JSON.parse(read(s[2]!, 'plan.json'));
    expect(part.shard).toEqual({ count: 3, indices: [2] });
    expect(part.points.map((p: { point: number }) => p.point)).toEqual([2, 5, 8]);
    expect(part.recommendation).toBeUndefined();

    ok(m);
    expect(m!.stdout).toMatch(/^RECOMMENDATION: workersMax \d+ with idleTimeoutMs=\d+\n/);
    expect(m!.stdout).toContain('merged 3 shards from 3 inputs');
    for (const f of ['plan.json', 'plan.md', 'plan.html']) expect(read(join(dir, 'merged'), f), f).toBe(read(join(dir, 'whole'), f));
    ok(top);
    for (const f of ['plan.json', 'plan.md', 'plan.html']) expect(read(join(dir, 'merged-top'), f), f).toBe(read(join(dir, 'whole'), f));
    // The shards ran every point; the merge stopped each line where the single plan did.
    const stops = JSON.parse(read(join(dir, 'whole'), 'plan.json')).sweep.grid.map((l: { stoppedAfter: number | null }) => l.stoppedAfter);
    expect(stops.some((x: number | null) => x !== null)).toBe(true);
  });

  test('the inputs must be every shard of one plan, once: exit 2 naming the inputs and the field', () => {
    const seeds3 = join(dir, 's1-seeds3');
    const BAD: [string[], RegExp][] = [
      [[s[0]!, s[2]!], /^loadlab: plan merge: shard 1 of 3 missing: give the directory of every shard/],
      [[s[0]!, s[1]!, s[2]!, s[1]!], new RegExp(`${s[1]} and ${s[1]} both hold shard 1 of 3`)],
      [[s[0]!, seeds3, s[2]!], new RegExp(`${s[0]} and ${seeds3} are not shards of one plan: they differ in spec\\.seeds \\(\\[3,4\\] vs \\[3,4,5\\]\\)`)],
      [[s[0]!, join(dir, 'whole'), s[2]!], /plan\.json: a whole plan \(no shard field\): only the plan\.json of `loadlab plan --shard I\/N` merges/],
      [[s[0]!, join(dir, 'nowhere')], /nowhere: no such file or directory/],
    ];
    const [seeds3Run, ...rs] = loadlab(
      { args: [...flags(3), '--shard', '1/3', '--out', seeds3] },
      ...BAD.map(([args]) => ({ args: ['plan', 'merge', ...args, '--out', join(dir, 'bad')] })),
      { args: ['plan', 'merge', s[0]!, s[1]!, s[2]!, '--out', s[0]!] },
    );
    ok(seeds3Run);
    BAD.forEach(([args, message], i) => {
      const b = rs[i]!;
      expect(b.status, `${args.join(' ')}\n${b.stderr}`).toBe(2);
      expect(b.stderr).toMatch(message);
    });
    expect(existsSync(join(dir, 'bad'))).toBe(false);
    const r = rs[BAD.length]!;
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--out .*s0: holds the input .*s0, which the merged plan\.json would overwrite/);
    expect(JSON.parse(read(s[0]!, 'plan.json')).shard).toEqual({ count: 3, indices: [0] });
  });

  test('a bad shard choice exits 2 before anything runs', () => {
    const [r, e] = loadlab(
      { args: [...FLAGS, '--shard', '3/3', '--out', join(dir, 'bad-shard')] },
      { args: [...FLAGS, '--out', join(dir, 'bad-shard')], env: { LOADLAB_SHARDS: '3' } },
    ) as [CliResult, CliResult];
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--shard 3\/3: the index I must be below the count N/);
    expect(e.status).toBe(2);
    expect(e.stderr).toMatch(/LOADLAB_SHARDS 3: needs JOB_COMPLETION_INDEX/);
    expect(existsSync(join(dir, 'bad-shard'))).toBe(false);
  });
});

test("merged shards where no point meets the SLOs: exit 99; a shard clears a whole plan's plan.md from its directory", () => {
  const none = [FILE, '--workers-max', '1..3', '--seeds', '1', '--slo', 'queue_delay_max_ms < 0', '--jobs', '1'];
  const a = join(dir, 'none-0');
  ok(loadlab({ args: ['plan', ...none, '--out', a] })[0], 99);
  expect(existsSync(join(a, 'plan.md'))).toBe(true);
  const [s0, s1, m] = loadlab(
    { args: ['plan', ...none, '--shard', '0/2', '--out', a] },
    { args: ['plan', ...none, '--shard', '1/2', '--out', join(dir, 'none-1')] },
    { args: ['plan', 'merge', a, join(dir, 'none-1'), '--out', join(dir, 'none')] },
  ) as [CliResult, CliResult, CliResult];
  ok(s0);
  ok(s1);
  expect(readdirSync(a)).toEqual(['plan.json']);
  ok(m, 99);
  expect(m.stdout).toMatch(/^NO RECOMMENDATION: no workersMax in 1\.\.3 meets every SLO on its 1 seed/);
  expect(m.stderr).toMatch(/^loadlab: no point meets the SLOs/);
  expect(JSON.parse(read(join(dir, 'none'), 'plan.json')).rows).toHaveLength(3);
});
