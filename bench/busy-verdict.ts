/**
 * The CI gate on a busy machine: `scenarios/ci-gate.yaml` run over HTTP (`loadlab run --target`)
 * against `loadlab serve` serving its endpoint, RUNS times, while SPINNERS processes spin on the
 * CPU (two: both cores of a 2-core runner kept busy), as on a shared CI runner. Sends there go out
 * late now and then; a late send that decides no threshold must not flip the verdict, so the
 * goal is every run exiting 0. Each run prints its exit code, wall time, late arrivals, send lag
 * (p99, max), its response-time thresholds judged from the intended and from the actual send,
 * and whether the 1 % rule alone (late or dropped arrivals, without the second judgement) would
 * have made it INVALID. Opt-in (run-all.ts): ten runs of ci-gate take about six minutes.
 * Usage:
 *   node dist/bench/busy-verdict.js [runs=10] [spinners=2]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../src/report/run-result.js';
import { BEHIND_MIN, BEHIND_SHARE } from '../src/report/verdict.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';
import { spawnFirstLine, stop } from './http-spawn.js';

const RUNS = Number(process.argv[2] ?? 10);
const SPINNERS = Number(process.argv[3] ?? 2);
if (!Number.isInteger(RUNS) || RUNS < 1 || !Number.isInteger(SPINNERS) || SPINNERS < 0) {
  console.error('usage: node dist/bench/busy-verdict.js [runs=10 (>= 1)] [spinners=2 (>= 0)]');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCENARIO = 'scenarios/ci-gate.yaml';
const KEY = 'busy-verdict-key';

/** A process that spins on one core until killed. */
function spinner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** `loadlab run` of the gate against `base`: its exit code, first stdout lines and wall time. */
function runGate(base: string, out: string): Promise<{ code: number | null; lines: string[]; wallMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/loadlab.js', 'run', SCENARIO, '--target', base, '--api-key', KEY, '--out', out], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      if (code !== 0 && stderr) process.stdout.write(stderr);
      resolve({ code, lines: stdout.split('\n'), wallMs: performance.now() - t0 });
    }),
  );
}

/** What the 1 % rule alone says: more than 1 % of arrivals late or dropped, and at least 3. */
function onePercentRule(r: RunResult): boolean {
  const bad = r.arrivals.late + r.arrivals.dropped;
  return bad >= BEHIND_MIN && bad / r.arrivals.intended > BEHIND_SHARE;
}

const dir = mkdtempSync(join(tmpdir(), 'loadlab-busy-verdict-'));
const serve = await spawnFirstLine(['bin/loadlab.js', 'serve', '--port', '0', '--config', SCENARIO, '--api-key', KEY]);
const base = /(http:\S+\/v2)/.exec(serve.line)![1]!;
const spinners = Array.from({ length: SPINNERS }, spinner);
console.log(
  `${SCENARIO} over HTTP against loadlab serve (${base}), ${RUNS} run${RUNS > 1 ? 's' : ''}, ${SPINNERS} spinning process${SPINNERS === 1 ? '' : 'es'}; load average ${loadavg()[0]!.toFixed(2)}`,
);
const codes: (number | null)[] = [];
let lateMax = 0;
let lagMax = 0;
let oldRuleInvalid = 0;
try {
  for (let i = 1; i <= RUNS; i++) {
    const out = join(dir, `run-${i}`);
    const { code, lines, wallMs } = await runGate(base, out);
    codes.push(code);
    const r = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    const a = r.arrivals;
    const old = onePercentRule(r);
    if (old) oldRuleInvalid++;
    lateMax = Math.max(lateMax, a.late);
    lagMax = Math.max(lagMax, a.sendLagMs.summary.max);
    const judged = r.thresholds.filter((t) => t.fromSend).map((t) => `${t.expr}: ${t.value} / ${t.fromSend!.value} from send`);
    console.log(
      `run ${i}: exit ${code}, ${(wallMs / 1000).toFixed(1)} s wall; ${a.late} of ${a.intended} arrivals late, ${a.dropped} dropped, send lag p99 ${a.sendLagMs.summary.p99} ms, max ${a.sendLagMs.summary.max} ms; 1 % rule alone: ${old ? 'INVALID' : 'valid'}; load average ${loadavg()[0]!.toFixed(2)}`,
    );
    console.log(`  ${lines[0]}${lines[1]?.startsWith('warning: ') ? `\n  ${lines[1]}` : ''}${judged.length ? `\n  judged again: ${judged.join('; ')}` : ''}`);
  }
} finally {
  for (const s of spinners) s.kill('SIGKILL');
  await stop(serve.child);
  rmSync(dir, { recursive: true, force: true });
}
const passed = codes.filter((c) => c === 0).length;
console.log(
  `exit 0 in ${passed} of ${RUNS} runs (exit codes ${codes.join(' ')}); the 1 % rule alone would have made ${oldRuleInvalid} of them INVALID; most late arrivals in a run ${lateMax}, longest send lag ${formatNumber(lagMax)} ms`,
);
recordFigure('busy-verdict', `${SCENARIO} over HTTP, ${SPINNERS} processes spinning: runs exiting 0`, `${passed} of ${RUNS}`, `${RUNS} of ${RUNS}`);
recordFigure('busy-verdict', 'runs the 1 % rule alone would have made INVALID', `${oldRuleInvalid} of ${RUNS}`);
