/**
 * `loadlab calibrate RUN_DIR [--out DIR] [--scenario FILE]`: fits the endpoint from a run against
 * it (calibrate/calibration.ts) and writes calibrated.yaml (the run's scenario with the fitted
 * endpoint, for `loadlab plan`), calibration.json, calibration.md and calibration.html. A run
 * that saw no endpoint of its own (in-process, merged, older reports) or no completed job is a
 * usage error (exit 2) saying why.
 *
 * `loadlab calibrate FILE.json…`: benchmark result files instead (vllm bench serve, GuideLLM,
 * GenAI-Perf: calibrate-bench.ts). One argument that is a directory or is named report.json is a
 * run; anything else, bench files.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { calibrate } from '../../calibrate/calibration.js';
import { calibratedScenario } from '../../calibrate/calibrated-scenario.js';
import { renderCalibrationHtml } from '../../calibrate/render-calibration-html.js';
import { renderCalibrationMarkdown } from '../../calibrate/render-calibration-md.js';
import { llmSummary } from '../../calibrate/llm-summary.js';
import { loadScenarioFile, formatIssue } from '../../load/scenario/loader.js';
import type { ObservedEndpoint, RunResult } from '../../report/run-result.js';
import { calibrationPaths } from '../calibration-files.js';
import { CliError, EXIT } from '../exit-codes.js';
import { readStoredRun } from '../report-input.js';
import { calibrateBenchCommand } from './calibrate-bench.js';
import { COMMANDS } from './catalog.js';

export interface CalibrateArgs {
  inputs: string[];
  out?: string;
  scenario?: string;
  'max-num-seqs'?: number;
  'max-num-batched-tokens'?: number;
  'kv-cache-tokens'?: number;
}

/**
 * A run directory, or its report.json (else: a benchmark result file). A path that does
 * not exist is a run when it is the only one and not named *.json (its error then says what a run
 * input is), and a bench file otherwise (its error names it among the files).
 */
function isRunInput(path: string, alone: boolean): boolean {
  if (basename(path) === 'report.json') return true;
  if (existsSync(path)) return statSync(path).isDirectory();
  return alone && !/\.json$/i.test(path);
}

export async function calibrateCommand(a: CalibrateArgs): Promise<number> {
  const runs = a.inputs.filter((p) => isRunInput(p, a.inputs.length === 1));
  if (runs.length === 0) {
    return calibrateBenchCommand(a.inputs, {
      out: a.out,
      scenario: a.scenario,
      maxNumSeqs: a['max-num-seqs'],
      maxNumBatchedTokens: a['max-num-batched-tokens'],
      kvCacheTokens: a['kv-cache-tokens'],
    });
  }
  if (a.inputs.length > 1)
    throw new CliError(
      `${runs.join(', ')}: a run directory is calibrated alone; give one run directory, or benchmark result files (*.json of vllm bench serve, GuideLLM or GenAI-Perf)`,
      EXIT.USAGE,
    );
  for (const flag of ['max-num-seqs', 'max-num-batched-tokens', 'kv-cache-tokens'] as const)
    if (a[flag] !== undefined) throw new CliError(`--${flag}: only for benchmark result files (a run's endpoint has no engine to fit)`, EXIT.USAGE);
  return calibrateRun(a.inputs[0]!, a);
}

function calibrateRun(runDir: string, a: CalibrateArgs): number {
  const { file, result } = readStoredRun(runDir);
  const r = observedRun(file, result);
  const scenarioFile = scenarioOf(file, r, a.scenario);
  const fit = calibrate(r);
  const c = fit.calibration;
  const dir = a.out ?? dirname(file);
  const paths = calibrationPaths(dir);
  writeFileSync(paths.scenario, calibratedScenario(readFileSync(scenarioFile, 'utf8'), c, dirname(file), { fromDir: dirname(scenarioFile), toDir: dir }));
  writeFileSync(paths.json, `${JSON.stringify(c, null, 2)}\n`);
  writeFileSync(paths.md, renderCalibrationMarkdown(fit));
  writeFileSync(paths.html, renderCalibrationHtml(fit));
  const d = (q: typeof c.jobDurationMs): string =>
    q.model === 'none' ? 'nothing to fit' : `${q.model}, p50 ${q.p50} ms, p95 ${q.p95} ms, ${q.samples} samples${q.trusted ? '' : ' (too few to trust)'}`;
  process.stdout.write(
    `${[
      `loadlab calibrate ${r.scenario.name}: ${file}`,
      ...(r.shard && r.shard.indices.length > 1
        ? [
            `  merged shards ${r.shard.indices.join(', ')} of ${r.shard.count}: fitted from what one shard observed (the one that read /health, shard 0 when merged), its /health answers and its own jobs`,
          ]
        : []),
      ...(c.balancer
        ? [
            `  a load-balancing endpoint: ${c.balancer.requests} requests served, ${c.balancer.jobTimes} of ${c.balancer.httpRequests} http ones timed as jobs, ${c.inputs.workers} workers named (X-Runpod-Worker-Id)`,
          ]
        : []),
      `  jobDurationMs: ${d(c.jobDurationMs)}`,
      `  coldStartMs:   ${d(c.coldStartMs)}`,
      `  idleTimeoutMs: ${c.idleTimeoutMs.value ?? 'nothing to fit'}${c.idleTimeoutMs.value !== undefined ? ` (${c.idleTimeoutMs.matched} stops matched${c.idleTimeoutMs.trusted ? '' : ', too few to trust'})` : ''}`,
      `  workersMax:    ${c.workersMax.value ?? 'no /health answers'}${c.workersMax.value !== undefined && !c.workersMax.reached ? ' (most seen; the queue never waited there)' : ''}`,
      ...llmSummary(c),
      `  wrote: ${Object.values(paths).join(', ')}`,
      `  next: loadlab plan ${paths.scenario}`,
    ].join('\n')}\n`,
  );
  return EXIT.OK;
}

/** The run, if it has something to fit; else a CliError saying why. */
function observedRun(file: string, r: RunResult): RunResult & { observed: ObservedEndpoint } {
  if (r.target.kind !== 'http') {
    throw new CliError(
      `${file}: a run on the ${r.target.kind === 'in-process' ? 'embedded simulator' : `${r.target.kind} target`}: nothing to fit (its endpoint is the scenario's own). Calibrate a run against your endpoint: loadlab run SCENARIO --target URL`,
      EXIT.USAGE,
    );
  }
  if (r.observed === undefined) {
    throw new CliError(
      `${file}: holds no observations of the endpoint (a run by an older loadlab, or merged shards none of which kept them): calibrate a run made by this loadlab`,
      EXIT.USAGE,
    );
  }
  const lb = r.observed.balancer;
  if (lb !== undefined && lb.count === 0) {
    throw new CliError(
      `${file}: a run against a load-balancing endpoint in which no worker answered a request: nothing to fit (did the run reach the endpoint? see its report.md)`,
      EXIT.USAGE,
    );
  }
  if (lb !== undefined && r.observed.workers.rows.length === 0) {
    throw new CliError(
      `${file}: no answer of the load-balancing endpoint carried an X-Runpod-Worker-Id header: calibrate needs the workers that served the requests (a proxy in the way may drop the header)`,
      EXIT.USAGE,
    );
  }
  if (lb === undefined && r.observed.executionMs.count === 0 && !r.observed.streams?.count) {
    throw new CliError(
      `${file}: no completed job with an executionTime and no completed stream was read: nothing to fit (did the run reach the endpoint? see its report.md)`,
      EXIT.USAGE,
    );
  }
  return r as RunResult & { observed: ObservedEndpoint };
}

/** The run's scenario file: --scenario, else the path the run recorded (as given, then beside the run directory). */
function scenarioOf(reportFile: string, r: RunResult, flag: string | undefined): string {
  const named = flag ?? r.scenario.file;
  if (named === undefined) throw new CliError(`${reportFile}: the run did not record its scenario file: give it with --scenario FILE`, EXIT.USAGE);
  const tries = isAbsolute(named) ? [named] : [resolve(named), resolve(dirname(reportFile), named)];
  const found = tries.find((f) => existsSync(f));
  if (!found)
    throw new CliError(
      `${flag !== undefined ? '--scenario' : `${reportFile}: the run's scenario`} ${named}: not found${flag === undefined ? ' (give it with --scenario FILE)' : ''}`,
      EXIT.USAGE,
    );
  const loaded = loadScenarioFile(found);
  if (!loaded.ok) throw new CliError(loaded.issues.map(formatIssue).join('\n'), EXIT.USAGE);
  return found;
}

export const calibrateCommandModule: CommandModule<object, CalibrateArgs> = {
  ...COMMANDS.calibrate,
  builder: (y) =>
    y
      .positional('inputs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe:
          'The directory of a run against your endpoint (loadlab run … --target URL), or its report.json; or benchmark result files of one LLM server, told apart by their content: vllm bench serve --save-result files (one per --max-concurrency), GuideLLM benchmarks.json (its concurrent and synchronous benchmarks), GenAI-Perf profile_export_genai_perf.json (one per --concurrency)',
      })
      .option('out', {
        type: 'string',
        describe: "Write calibrated.yaml and calibration.json/.md/.html here (default: the run directory, or the first file's folder)",
      })
      .option('scenario', {
        type: 'string',
        describe:
          "A run's scenario file, when it is no longer where the run read it (default: the path stored in report.json); with bench files, your scenario to put the fitted worker in (calibrated.yaml is then it, with endpoint.llm.engine fitted)",
      })
      .option('max-num-seqs', {
        type: 'number',
        describe: "Bench files: the server's --max-num-seqs (default: vLLM's on a GPU under 70 GiB or an A100, 256; on an H100 or larger, 1024)",
      })
      .option('max-num-batched-tokens', {
        type: 'number',
        describe: "Bench files: the server's --max-num-batched-tokens (default: vLLM's on a GPU under 70 GiB or an A100, 2048; on an H100 or larger, 8192)",
      })
      .option('kv-cache-tokens', {
        type: 'number',
        describe:
          "Bench files: the KV cache's size in tokens, from the server's startup line \"GPU KV cache size: N tokens\" (default: fitted when the sweep reached the cache's limit, else none and the fit says so)",
      })
      .example(
        '$0 run scenarios/calibrate-probe.yaml --target https://api.runpod.ai --health-every 1s --out reports/probe',
        'a probe run against your endpoint (API key in RUNPOD_API_KEY)',
      )
      .example('$0 calibrate reports/probe', 'fit it: reports/probe/calibrated.yaml and calibration.md')
      .example('$0 plan reports/probe/calibrated.yaml', 'size workersMax for your own endpoint')
      .example(
        '$0 run scenarios/calibrate-lb-probe.yaml --target https://api.runpod.ai --health-every 1s --out reports/lb-probe',
        'the probe of a load-balancing endpoint (its http requests timed end to end, its workers from X-Runpod-Worker-Id); then calibrate reports/lb-probe',
      )
      .example(
        'for c in 1 4 16 32; do vllm bench serve --model M --max-concurrency $c --save-result --result-filename c$c.json; done',
        'a concurrency sweep of one vLLM server',
      )
      .example('$0 calibrate c*.json --out reports/llm', 'fit one LLM worker to it: reports/llm/calibrated.yaml and calibration.md')
      .example('$0 calibrate benchmarks.json', 'the same from a GuideLLM run (guidellm benchmark --profile concurrent --rate 1,4,16,32)')
      .example(
        '$0 calibrate artifacts/*concurrency*/profile_export_genai_perf.json',
        'the same from GenAI-Perf runs (genai-perf profile --streaming --concurrency C)',
      )
      .epilog(
        'Benchmark files accepted: vllm bench serve --save-result (closed loops: --max-concurrency, --request-rate inf); GuideLLM benchmarks.json (its concurrent benchmarks, C = streams, and synchronous ones, C = 1; rate and throughput benchmarks are skipped, and said so); GenAI-Perf profile_export_genai_perf.json (--concurrency; a --request-rate run is refused). From them it fits llm.engine (decodeMs and perSequenceMs from the ITL medians against concurrency; prefillMsPerToken and overheadMs from TTFT), corrects the fit against the simulator, and shows for each run the measured and predicted TTFT, ITL, TPOT, E2E latency and output tokens/s (docs/calibrate.md).',
      ),
  handler: async (a) => {
    await calibrateCommand(a);
  },
};
