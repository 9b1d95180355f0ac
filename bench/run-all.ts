/**
 * `npm run bench`: runs every benchmark script in its own Node process (so each one's peak RSS
 * is its own) one after another, and prints what each printed. Scripts are the compiled
 * `dist/bench/*.js` files other than this one and the table's modules; `BENCH=name1,name2`
 * picks some (by name prefix).
 *
 * Each bench also records its headline figures (figures.ts) in a temporary file; after a full
 * run (no `BENCH`) this script rewrites the figures table of docs/performance.md between its
 * markers (figures-table.ts), with the date, core count, Node version and load average.
 * `BENCH_TABLE=0` leaves the document alone; `BENCH_TABLE=1` rewrites it after a partial run
 * too (only the figures of the benches that ran are then in it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figuresTable, replaceMarked, type Failure, type Figure } from './figures-table.js';

/** Compiled files here that are not benches (the table's own modules). */
const NOT_BENCHES = new Set([
  'run-all.js',
  'figures.js',
  'cpu-split.js',
  'figures-table.js',
  'arrival-server.js',
  'arrival-stats.js',
  'peer-tools.js',
  'tree-cpu.js',
  'floor-sender.js',
  'busy-wait.js',
]);
/** Run only when `BENCH` names them: they take minutes (busy-verdict: about six), need tools outside npm (generator-vs-peers: hey), check a fit rather than speed (llm-holdout, llm-holdout-all) or bounded memory rather than speed (long-trace). */
const OPT_IN = new Set(['generator-vs-peers.js', 'busy-verdict.js', 'llm-holdout.js', 'llm-holdout-all.js', 'long-trace.js']);

const here = dirname(fileURLToPath(import.meta.url));
const doc = join(here, '..', '..', 'docs', 'performance.md');
const only = process.env.BENCH?.split(',').filter(Boolean);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.js') && !NOT_BENCHES.has(f))
  .filter((f) => (only ? only.some((o) => f.startsWith(o)) : !OPT_IN.has(f)))
  .sort();

const tmp = mkdtempSync(join(tmpdir(), 'loadlab-bench-'));
const figuresFile = join(tmp, 'figures.jsonl');
const load0 = loadavg()[0]!;
let loadMax = load0;
const failures: Failure[] = [];
for (const s of scripts) {
  console.log(`\n## ${s.replace(/\.js$/, '')}`);
  const r = spawnSync(process.execPath, ['--max-old-space-size=12288', join(here, s)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_FIGURES: figuresFile },
  });
  loadMax = Math.max(loadMax, loadavg()[0]!);
  if (r.status !== 0) {
    failures.push({ bench: s.replace(/\.js$/, ''), exitCode: r.status });
    console.log(`(exit ${r.status})`);
  }
}

const figures: Figure[] = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Figure)
  : [];
rmSync(tmp, { recursive: true, force: true });
const write = process.env.BENCH_TABLE === '1' || (process.env.BENCH_TABLE !== '0' && !only);
if (!write) {
  console.log(`\n(figures table of docs/performance.md left as it was: ${only ? 'a partial run (BENCH_TABLE=1 writes it anyway)' : 'BENCH_TABLE=0'})`);
} else if (!existsSync(doc)) {
  console.log(`\n(no ${doc}: figures table not written)`);
} else {
  const table = figuresTable(
    figures,
    {
      date: new Date().toISOString().slice(0, 10),
      cores: cpus().length,
      cpuModel: cpus()[0]?.model.trim(),
      node: process.version,
      loadAverage: load0,
      loadAverageMax: loadMax,
    },
    failures,
  );
  writeFileSync(doc, replaceMarked(readFileSync(doc, 'utf8'), table));
  console.log(`\nFigures table of docs/performance.md rewritten: ${figures.length} figures${failures.length ? `, ${failures.length} bench(es) failed` : ''}.`);
}
process.exitCode = failures.length ? 1 : 0;
