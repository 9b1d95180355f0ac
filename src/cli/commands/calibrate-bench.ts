/**
 * `loadlab calibrate FILE.json… [--out DIR] [--max-num-seqs N] [--max-num-batched-tokens N]`:
 * fits one LLM worker (llm.engine) to benchmark result files (`vllm bench serve --save-result`,
 * GuideLLM's benchmarks.json, GenAI-Perf's profile_export_genai_perf.json: read-bench-files.ts)
 * and writes calibrated.yaml (a runnable scenario of that worker under the bench's closed loop),
 * calibration.json, calibration.md and calibration.html (each run's figures measured against the
 * simulator's prediction). A file that cannot be read, is not JSON or misses a field the fit needs
 * is a usage error (exit 2) naming the file and the field; every such problem is told at once.
 * The open-loop runs of a GuideLLM file with closed ones are skipped, and said so.
 */
import { parse as parseYaml } from 'yaml';
import { benchIntoScenario } from '../../calibrate/bench/bench-into-scenario.js';
import type { BenchEndpoint } from '../../calibrate/bench/bench-scenario.js';
import { formatIssue, parseScenario } from '../../load/scenario/loader.js';
import type { ScenarioInput } from '../../load/scenario/schema.js';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { calibrateBench, type KvCacheFit, type ServerLimits } from '../../calibrate/bench/bench-calibration.js';
import { type BenchIssue, type BenchRun, sourceNames } from '../../calibrate/bench/bench-file.js';
import { describeSources, parseBenchTexts } from '../../calibrate/bench/read-bench-files.js';
import { benchScenarioYaml } from '../../calibrate/bench/bench-scenario.js';
import { renderBenchHtml } from '../../calibrate/bench/render-bench-html.js';
import { renderBenchMarkdown, worstErrors } from '../../calibrate/bench/render-bench-md.js';
import { calibrationPaths } from '../calibration-files.js';
import { CliError, EXIT } from '../exit-codes.js';

export interface BenchArgs {
  out?: string;
  /** Your scenario: calibrated.yaml is it with the fitted worker (bench-into-scenario.ts). */
  scenario?: string;
  maxNumSeqs?: number;
  maxNumBatchedTokens?: number;
  kvCacheTokens?: number;
}

export async function calibrateBenchCommand(files: readonly string[], a: BenchArgs): Promise<number> {
  const { runs, skipped } = readRuns(files);
  const server: ServerLimits = {
    ...(a.maxNumSeqs !== undefined ? { maxNumSeqs: positiveInt('--max-num-seqs', a.maxNumSeqs, 65_536) } : {}),
    ...(a.maxNumBatchedTokens !== undefined ? { maxNumBatchedTokens: positiveInt('--max-num-batched-tokens', a.maxNumBatchedTokens, 1_048_576) } : {}),
    ...(a.kvCacheTokens !== undefined ? { kvCacheTokens: kvTokens(a.kvCacheTokens) } : {}),
  };
  // Yours is read before the fit (seconds of simulation) so a wrong path fails at once.
  const yours = a.scenario === undefined ? undefined : readScenarioText(a.scenario);
  const { calibration: c, scenario } = await calibrateBench(runs, server);
  const dir = a.out ?? dirname(files[0]!);
  const paths = calibrationPaths(dir);
  const users = c.levels.map((l) => l.concurrency);
  const from = files.map((f) => basename(f));
  const tools = sourceNames(c.sources);
  writeFileSync(
    paths.scenario,
    yours === undefined ? benchScenarioYaml(scenario, from, users, tools) : intoScenario(a.scenario!, yours, c.endpoint, scenario, from, tools, paths.scenario),
  );
  writeFileSync(paths.json, `${JSON.stringify(c, null, 2)}\n`);
  writeFileSync(paths.md, renderBenchMarkdown(c));
  writeFileSync(paths.html, renderBenchHtml(c));
  const e = c.endpoint.engine;
  process.stdout.write(
    `${[
      `loadlab calibrate: ${describeSources(runs)}, ${runs.every((r) => r.source === 'vllm') ? '--max-concurrency' : 'concurrency'} ${users.join(', ')}`,
      ...skipped.map((i) => `  skipped: ${i.file}: ${i.field}: ${i.reason}`),
      `  engine: decodeMs ${e.decodeMs}, perSequenceMs ${e.perSequenceMs}, prefillMsPerToken ${e.prefillMsPerToken}, overheadMs ${e.overheadMs}${e.frontEndMs > 0 ? `, frontEndMs ${e.frontEndMs}` : ''} (maxNumSeqs ${e.maxNumSeqs}, maxNumBatchedTokens ${e.maxNumBatchedTokens})`,
      `  KV cache: ${kvLine(c.fit.kvCache)}`,
      `  workerConcurrency ${c.endpoint.workerConcurrency}; ${c.fit.rounds} round(s) against the simulator`,
      `  predicted against measured, largest error over the files: ${worstErrors(c.levels)}`,
      `  wrote: ${Object.values(paths).join(', ')}`,
      `  next: loadlab ${a.scenario === undefined ? 'run' : 'plan'} ${paths.scenario}`,
    ].join('\n')}\n`,
  );
  return EXIT.OK;
}

/** Every file read and checked; all problems in one error. */
function readRuns(files: readonly string[]): { runs: BenchRun[]; skipped: BenchIssue[] } {
  const texts: { file: string; text: string }[] = [];
  const unread: BenchIssue[] = [];
  for (const file of files) {
    try {
      if (statSync(file).isDirectory()) throw new Error('a directory: give benchmark result files (*.json), or one run directory alone');
      texts.push({ file, text: readFileSync(file, 'utf8') });
    } catch (e) {
      unread.push({ file, field: '(file)', reason: cannotRead(e) });
    }
  }
  const { runs, skipped, issues: bad } = parseBenchTexts(texts);
  // In the order of the arguments.
  const issues = [...unread, ...bad].sort((x, y) => files.indexOf(x.file) - files.indexOf(y.file));
  if (issues.length > 0) throw new CliError(issues.map((i) => `${i.file}: ${i.field}: ${i.reason}`).join('\n'), EXIT.USAGE);
  return { runs, skipped };
}

function readScenarioText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`--scenario ${file}: ${cannotRead(e)}`, EXIT.USAGE);
  }
}

function cannotRead(e: unknown): string {
  return `cannot read it (${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message})`;
}

/**
 * `file` (its `text`) with the fitted worker, to be written at `out` (its trace paths made relative
 * to that folder); exit 2 naming the file when it is not a scenario, or invalid after the change.
 */
function intoScenario(file: string, text: string, ep: BenchEndpoint, fitted: ScenarioInput, from: readonly string[], tools: string, out: string): string {
  const dirs = { fromDir: dirname(file), toDir: dirname(out) };
  const r = benchIntoScenario(text, ep, fitted.endpoint?.llm?.outputTokens, from, tools, fitted.plan?.calibratedUpTo, dirs);
  if (r.text === undefined) throw new CliError(`--scenario ${file}: ${r.problem}`, EXIT.USAGE);
  const check = parseScenario(parseYaml(r.text), out);
  if (!check.ok) throw new CliError(check.issues.map(formatIssue).join('\n'), EXIT.USAGE);
  return r.text;
}

function positiveInt(flag: string, v: number, max: number): number {
  if (!Number.isInteger(v) || v < 1 || v > max) throw new CliError(`${flag} ${v}: a whole number from 1 to ${max}`, EXIT.USAGE);
  return v;
}

/** --kv-cache-tokens: whole tokens, at least one block of 16. */
function kvTokens(v: number): number {
  if (!Number.isInteger(v) || v < 16 || v > 1_073_741_824)
    throw new CliError(`--kv-cache-tokens: ${v}: give the KV cache's size in tokens, an integer from 16`, EXIT.USAGE);
  return v;
}

/** What the fit knows of the KV cache, in a line. */
export function kvLine(kv: KvCacheFit): string {
  if (kv.status === 'given') return `${kv.tokens} tokens (given)`;
  if (kv.status === 'fitted') return `${kv.tokens} tokens, fitted: the sweep reached the cache's limit`;
  return `not reached up to concurrency ${kv.maxConcurrency}: its size is unknown (the engine has none; give --kv-cache-tokens)`;
}
