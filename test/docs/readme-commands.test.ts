/**
 * The commands of README.md, then of docs/run.md, docs/serve.md, docs/library.md (the pages the
 * README's reference sections live in), docs/llm-sizing.md and docs/plan-from-trace.md (the walkthroughs), work when pasted
 * in order on a fresh clone. Their ```sh blocks run in one bash session (test/docs/shell-session.ts)
 * in a temp directory holding a copy of scenarios/, schema/ and examples/, so every report lands there; their ```ts blocks are type-checked and run
 * (test/docs/ts-examples.ts); the README's ```yaml scenarios load and pass their thresholds, and the
 * sample output of the tour's step 1 is what the command prints. A block preceded by `<!-- readme-test: skip (reason) -->` is not run
 * (npm install, Python, promtool, servers that would run for minutes); other languages (js, text)
 * are not run either.
 *
 * Adjustments, all here: `npx loadlab` runs `node bin/loadlab.js`; port 8080 becomes a free port, so
 * the test runs beside other servers; every URL in a run block must be loopback. The commands use
 * curl: without it the test is skipped, except under CI=true where it fails.
 *
 * Time, on a shared 2-core machine at load averages of 10–13: 94–133 s for the shell blocks, 19–24 s
 * for the ts blocks, 3–11 s each for the yaml and sample-output checks; docs/plan-from-trace.md's
 * calibrate and plan add about 50 s at load averages of 6–7. The caps (240 s for the shell blocks,
 * 180 s for the ts blocks) only bound a stuck run.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { codeBlocks, type CodeBlock as Block } from './readme-blocks.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { parse as parseYaml } from 'yaml';
import { runShellSession, type BlockRun } from './shell-session.js';
import { runExamples, typeCheck } from './ts-examples.js';

const repo = resolve(import.meta.dirname, '..', '..');
/** The files whose blocks run, in this order (one shell session for all). */
const DOC_FILES = ['README.md', 'docs/run.md', 'docs/serve.md', 'docs/library.md', 'docs/llm-sizing.md', 'docs/plan-from-trace.md'];
type CodeBlock = Block & { file: string };
const blocks: CodeBlock[] = DOC_FILES.flatMap((f) => codeBlocks(readFileSync(join(repo, f), 'utf8')).map((b) => ({ ...b, file: f })));
const shBlocks = blocks.filter((b) => b.lang === 'sh' && !b.skip);
const tsBlocks = blocks.filter((b) => b.lang === 'ts' && !b.skip);
const hasCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).status === 0;
if (!hasCurl && process.env.CI === 'true') throw new Error('curl is missing: the README test needs it under CI');

const work = mkdtempSync(join(tmpdir(), 'loadlab-readme-'));
cpSync(join(repo, 'scenarios'), join(work, 'scenarios'), { recursive: true });
cpSync(join(repo, 'schema'), join(work, 'schema'), { recursive: true });
cpSync(join(repo, 'examples'), join(work, 'examples'), { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = (p: string) => join(work, p);
const json = (p: string) => JSON.parse(readFileSync(file(p), 'utf8'));

/** What a block must produce, besides exiting 0; each must match exactly one run block. */
interface Expectation {
  block: RegExp;
  stdout?: RegExp[];
  files?: string[];
  check?: () => void;
}

const SH_EXPECT: Expectation[] = [
  {
    block: /^npx loadlab run scenarios\/steady-mix\.yaml$/m,
    stdout: [/thresholds: 3\/3 passed/],
    files: ['report.json', 'report.md', 'report.html', 'metrics.om'].map((f) => `reports/steady-mix/${f}`),
  },
  { block: /steady-mix\.yaml --dry-run$/m, stdout: [/plan for steady-mix/, /requests per operation/] },
  { block: /--api-key demo-key --port \d+ &$/m, stdout: [/listening on http:\/\/127\.0\.0\.1:\d+\/v2 \(endpoints: steady; clock real/, /\{"status":"ok"\}/] },
  {
    block: /status-sync/,
    stdout: [
      /"status":"COMPLETED".*"output":\{"prompt":"hi"\}/,
      /"id":"sync-[^"]+","status":"COMPLETED".*"output":\{"x":1\}/,
      /\{"jobs":\{"completed":2,/,
      /^loadlab_jobs_accepted_total\{/m,
    ],
  },
  {
    block: /loadlab blast/,
    files: ['reports/blast-health/report.json'],
    check: () => expect(json('reports/blast-health/report.json').target.causes).toBe('reported'),
  },
  {
    block: /--lockstep/,
    stdout: [/lockstep, seed 1/],
    check: () => {
      const lock = json('reports/steady-mix-lockstep/report.json');
      const inProcess = json('reports/steady-mix/report.json');
      expect(lock.target.kind).toBe('lockstep');
      expect(lock.jobs).toEqual(inProcess.jobs); // "the jobs end exactly as in step 1"
    },
  },
  { block: /--junit reports\/junit\.xml/, check: () => expect(readFileSync(file('reports/junit.xml'), 'utf8')).toMatch(/tests="4" failures="0"/) },
  { block: /_sim\/advance/, stdout: [/\{"now":0,"received":0,"ended":0,"markers":0\}/, /\{"now":10000,/] },
  { block: /--seed 7 --out/, files: ['reports/steady-mix-seed-7/report.json', 'reports/steady-mix/metrics.om'] },
  {
    block: /loadlab calibrate examples\/vllm-bench-l4\/c\*\.json --scenario scenarios\/llm-sizing\.yaml/,
    files: ['reports/llm-sizing/calibrated.yaml', 'reports/llm-sizing/calibration.md', 'reports/llm-sizing/calibration.html'],
  },
  {
    // The walkthrough quotes the recommendation and the grid: they are what the plan answers.
    block: /loadlab plan reports\/llm-sizing\/calibrated\.yaml/,
    stdout: [/^RECOMMENDATION: workersMax 2 with workerConcurrency=32$/m],
    check: () => {
      const doc = readFileSync(join(repo, 'docs/llm-sizing.md'), 'utf8');
      const grid = readFileSync(file('reports/llm-sizing/plan/plan.md'), 'utf8');
      for (const row of doc.split('\n').filter((l) => /^\| \d \| /.test(l))) expect(grid).toContain(row);
      expect(doc).toContain('RECOMMENDATION: workersMax 2 with workerConcurrency=32');
    },
  },
  {
    // docs/plan-from-trace.md quotes the dry run's trace lines, the recommendation and the grid.
    block: /llm-trace-plan\.yaml --dry-run$/m,
    check: () => {
      const doc = readFileSync(join(repo, 'docs/plan-from-trace.md'), 'utf8');
      const quoted = doc.split('\n').filter((l) => /^ {4}(trace |requests per |prompt tokens )/.test(l));
      expect(quoted).toHaveLength(3);
      const out = spawnSync('node', [join(repo, 'bin', 'loadlab.js'), 'run', 'scenarios/llm-trace-plan.yaml', '--dry-run'], { cwd: work, encoding: 'utf8' });
      for (const l of quoted) expect(out.stdout).toContain(l);
    },
  },
  {
    block: /loadlab calibrate examples\/vllm-bench-l4\/c\*\.json --scenario scenarios\/llm-trace-plan\.yaml/,
    files: ['reports/llm-trace-plan/calibrated.yaml'],
  },
  {
    block: /loadlab plan reports\/llm-trace-plan\/calibrated\.yaml/,
    stdout: [/^RECOMMENDATION: workersMax 3 with workerConcurrency=32$/m, /^ {2}cost: \$2\.0410 per hour/m],
    check: () => {
      const doc = readFileSync(join(repo, 'docs/plan-from-trace.md'), 'utf8');
      const grid = readFileSync(file('reports/llm-trace-plan/plan/plan.md'), 'utf8');
      const rows = doc.split('\n').filter((l) => /^\| \d \| /.test(l));
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(grid).toContain(row);
      expect(grid).toContain('Flow chat replays the trace azure2023_conv.csv');
      expect(doc).toContain('cost: $2.0410 per hour, $0.0234 per 1000 jobs');
    },
  },
];

const TS_EXPECT: Expectation[] = [
  {
    block: /new Simulator/,
    stdout: [/^job\.accepted 0$/m, /^200 \{"id":"[^"]+-u1","status":"IN_QUEUE"\}$/m, /^job\.finished \d+$/m, /^200 \{"jobs":\{"completed":1,/m],
  },
  { block: /runScenario/, stdout: [/^1614 \{ COMPLETED: 1614 \}$/m], files: ['reports/steady-mix-seed-7.md', 'reports/steady-mix-seed-7.junit.xml'] },
  {
    block: /parseRunResult/,
    stdout: [/^true steady-mix$/m],
    files: ['reports/steady-mix/copy.json', 'reports/steady-mix/copy.html', 'reports/steady-mix/copy.om'],
  },
  { block: /startServer/, stdout: [/^http:\/\/127\.0\.0\.1:\d+\/v2 200 /m] },
];

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? ok(a.port) : fail(new Error('no port'))));
    });
  });
}

function where(b: CodeBlock): string {
  return `${b.file}:${b.line}`;
}

function checkExpectations(list: readonly Expectation[], run: readonly CodeBlock[], outputs: readonly { stdout: string }[]): void {
  for (const e of list) {
    const hits = run.flatMap((b, n) => (e.block.test(b.code) ? [n] : []));
    expect(hits, `exactly one run block matches ${String(e.block)}`).toHaveLength(1);
    const n = hits[0] ?? 0;
    const b = run[n] as CodeBlock;
    for (const re of e.stdout ?? []) expect(outputs[n]?.stdout, `${where(b)}: output matches ${String(re)}`).toMatch(re);
    for (const f of e.files ?? []) expect(existsSync(file(f)), `${where(b)}: writes ${f}`).toBe(true);
    e.check?.();
  }
}

/** The tour's step 1 sample output as a pattern: the wall time and metrics.om's instants vary. */
function samplePattern(text: string): RegExp {
  const esc = (l: string) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lines = text.split('\n').map((l) =>
    esc(l)
      .replace(/in [0-9]+\\\.[0-9]+ s wall/, 'in [0-9.]+ s wall')
      .replace(/\d{4}-\d\d-\d\dT[0-9:]+\\\.\d{3}Z/g, '[0-9T:.Z-]+'),
  );
  return new RegExp(`^${lines.join('\n')}$`, 'm');
}

describe('README.md scenarios and sample output', () => {
  const readme = blocks.filter((b) => b.file === 'README.md');
  test('the ```yaml scenarios load and pass their thresholds', async () => {
    const yamls = readme.filter((b) => b.lang === 'yaml');
    expect(yamls.length).toBeGreaterThan(0);
    for (const b of yamls) {
      const loaded = parseScenario(parseYaml(b.code), where(b));
      if (!loaded.ok) throw new Error(`${where(b)}: ${JSON.stringify(loaded.issues)}`);
      const r = await runScenario(loaded.scenario, {});
      expect(
        r.thresholds.filter((t) => !t.ok),
        where(b),
      ).toEqual([]);
    }
  });
  test("the tour's step 1 sample output is what the command prints", () => {
    const sample = readme.find((b) => b.lang === 'text');
    expect(sample, 'the sample output block').toBeDefined();
    const r = spawnSync('node', [join(repo, 'bin', 'loadlab.js'), 'run', 'scenarios/steady-mix.yaml', '--out', 'reports/sample-check'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const printed = r.stdout.replaceAll('reports/sample-check', 'reports/steady-mix').trimEnd();
    expect(printed).toMatch(samplePattern((sample as CodeBlock).code));
  });
});

describe.skipIf(!hasCurl)(hasCurl ? 'README.md commands' : 'README.md commands (skipped: curl is not installed)', () => {
  test('every skip marker gives a reason; install, test-suite and Python blocks are skipped', () => {
    for (const b of blocks) if (b.skip !== undefined) expect(b.skip.length, where(b)).toBeGreaterThan(3);
    for (const b of blocks.filter((x) => x.lang === 'sh')) {
      if (/\bnpm (install|test)\b|\bpython\b|\bpip\b|\bvitest\b/.test(b.code)) expect(b.skip, `${where(b)} must be skipped`).toBeDefined();
    }
    expect(shBlocks.length).toBeGreaterThanOrEqual(SH_EXPECT.length);
  });

  test('the sh blocks run in order, each exits 0 and produces what the README says', async () => {
    const port = String(await freePort());
    const codes = shBlocks.map((b) => b.code.replaceAll('8080', port));
    for (const [n, code] of codes.entries()) {
      for (const m of code.matchAll(/https?:\/\/([^/:\s'"]+)/g))
        expect(['127.0.0.1', 'localhost'], `${where(shBlocks[n] as CodeBlock)}: ${m[0]}`).toContain(m[1]);
    }
    const session = await runShellSession(codes, { cwd: work, repo, capMs: 240_000 });
    const report = (r: BlockRun) => `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
    session.blocks.forEach((r, n) => {
      const b = shBlocks[n] as CodeBlock;
      expect(r.finished, `${where(b)} did not finish${session.timedOut ? ' (session cap of 240 s)' : ''}\n${report(r)}`).toBe(true);
      expect(r.failures, `${where(b)}: commands that failed\n${report(r)}`).toEqual([]);
    });
    expect(session.timedOut, 'the session ended by itself').toBe(false);
    console.log(`README sh blocks ended at (s): ${session.blocks.map((r) => ((r.endedAtMs ?? NaN) / 1000).toFixed(1)).join(', ')}`);
    checkExpectations(SH_EXPECT, shBlocks, session.blocks);
  }, 250_000);

  test('the ts blocks type-check and run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-readme-ts-'));
    try {
      const codes = tsBlocks.map((b) => b.code);
      // The examples run "after the tour": when this test runs alone, the tour's first step first.
      if (!existsSync(file('reports/steady-mix/report.json'))) {
        const tour = spawnSync('node', [join(repo, 'bin', 'loadlab.js'), 'run', 'scenarios/steady-mix.yaml'], { cwd: work, encoding: 'utf8', timeout: 60_000 });
        expect(tour.status, tour.stderr).toBe(0);
      }
      expect(typeCheck(codes, repo, dir)).toBe('');
      const runs = runExamples(codes, repo, dir, work);
      runs.forEach((r, n) => expect(r.status, `${where(tsBlocks[n] as CodeBlock)}\n${r.stdout}\n${r.stderr}`).toBe(0));
      checkExpectations(TS_EXPECT, tsBlocks, runs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
