/**
 * Several `loadlab …` command lines in ONE child process: the built CLI's `main(argv)`
 * (dist/src/cli/main.js, what bin/loadlab.js calls) runs each in turn, with its own environment
 * changes, its stdout and stderr captured apart and its exit code as main returns it (bin/loadlab.js
 * sets `process.exitCode` to it). The child has the young generation bin/loadlab.js gives the
 * commands that simulate (cli/young-generation.ts; the launcher itself is tested on its own). A
 * Node process and the CLI's modules cost ~0.6 s of CPU each time (twice for a simulating command,
 * launcher and child); a file of 30 refusals pays it once.
 *
 * For command lines that end by themselves (refusals, --help, a manifest or report written):
 * what one leaves running (a server, a timer) would run on into the next. Anything that depends on
 * a fresh process (a signal, what modules a run loads, a wall-clock run) keeps its own process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SEMI_SPACE_MB } from '../../src/cli/young-generation.js';

export interface CliCase {
  args: string[];
  /** Set for this command line only; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Working directory of this command line (default: this checkout). */
  cwd?: string;
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

const MAIN = resolve('dist/src/cli/main.js');

/**
 * The child's script: argv[2] the cases (JSON file), argv[3] where to write the results, argv[4]
 * main.js. Run from a file, not `--input-type=module -e`: worker threads (plan --jobs) inherit
 * the process's execArgv, as they would the CLI's (none).
 */
const CHILD = `
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [casesFile, resultsFile, mainFile] = process.argv.slice(2);
const { main } = await import(pathToFileURL(mainFile).href);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const baseEnv = { ...process.env };
const baseCwd = process.cwd();
const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
const results = [];
for (const c of cases) {
  for (const k of Object.keys(process.env)) if (!(k in baseEnv)) delete process.env[k];
  Object.assign(process.env, baseEnv);
  for (const [k, v] of Object.entries(c.env ?? {})) if (v === null) delete process.env[k]; else process.env[k] = v;
  process.chdir(c.cwd ?? baseCwd);
  const out = { stdout: '', stderr: '' };
  for (const s of ['stdout', 'stderr']) {
    process[s].write = (chunk, enc, cb) => {
      out[s] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof enc === 'string' ? enc : 'utf8');
      const done = typeof enc === 'function' ? enc : cb;
      if (done) queueMicrotask(done);
      return true;
    };
  }
  let status;
  try {
    status = await main(c.args);
  } catch (e) {
    status = -1;
    out.stderr += 'main threw: ' + (e && e.stack || String(e));
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
  results.push({ status, ...out });
}
writeFileSync(resultsFile, JSON.stringify(results));
process.exit(0);
`;

/** Runs `cases` in order in one child process (cwd: this checkout; CI=true as for the other CLI tests). */
export function cliBatch(cases: readonly CliCase[], env: NodeJS.ProcessEnv = process.env): CliResult[] {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-cli-batch-'));
  try {
    const casesFile = join(dir, 'cases.json');
    const resultsFile = join(dir, 'results.json');
    // JSON has no undefined: null stands for "remove the variable".
    const json = cases.map((c) => ({ args: c.args, cwd: c.cwd, env: Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, v ?? null])) }));
    writeFileSync(casesFile, JSON.stringify(json));
    const script = join(dir, 'batch.mjs');
    writeFileSync(script, CHILD);
    const r = spawnSync(process.execPath, [`--max-semi-space-size=${SEMI_SPACE_MB}`, script, casesFile, resultsFile, MAIN], {
      encoding: 'utf8',
      env: { ...env, CI: 'true' },
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    let results: CliResult[];
    try {
      results = JSON.parse(readFileSync(resultsFile, 'utf8')) as CliResult[];
    } catch {
      throw new Error(`the CLI batch did not finish (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
    }
    if (results.length !== cases.length) throw new Error(`the CLI batch ran ${results.length} of ${cases.length} command lines`);
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The results of `cases()` (built when first asked for), run as one batch the first time a test
 * asks for one: each test of a file checks its own command line.
 */
export function batched(cases: () => readonly CliCase[], env?: NodeJS.ProcessEnv): (i: number) => CliResult {
  let ran: CliResult[] | undefined;
  return (i) => (ran ??= cliBatch(cases(), env))[i]!;
}
