/**
 * The scenario of a vllm bench serve run on the fitted endpoint: one worker (workersMin =
 * workersMax = 1, as the bench ran one server) with the fitted `llm.engine`, and a closed loop of
 * `users` streaming openai-chat clients sending the bench's prompt and answer lengths without a
 * pause, as `--request-rate inf --max-concurrency users` does. The same scenario is what the
 * predictions run and what calibrated.yaml holds.
 */
import { isCollection, parseDocument } from 'yaml';
import type { EngineConfig } from '../../contract/llm-config.js';
import { InternalError } from '../../contract/loadlab-error.js';
import { parseScenario } from '../../load/scenario/loader.js';
import type { Scenario, ScenarioInput } from '../../load/scenario/schema.js';
import type { Workload } from './bench-workload.js';

/** The fitted endpoint: its engine and how many jobs its one worker holds at once. */
export interface BenchEndpoint {
  engine: EngineConfig;
  workerConcurrency: number;
}

export const BENCH_FLOW = 'chat';

/** How long the loop sends (ms) and how long its last requests may take to finish (ms). */
export interface RunLength {
  durationMs: number;
  drainMs: number;
}

export function benchScenarioInput(ep: BenchEndpoint, w: Workload, users: number, len: RunLength): ScenarioInput {
  return {
    name: 'vllm-bench-calibrated',
    seed: 1,
    durationMs: len.durationMs,
    drainMs: len.drainMs,
    endpoint: {
      id: 'llm',
      workersMin: 1,
      workersMax: 1,
      workerConcurrency: ep.workerConcurrency,
      // The bench called the vLLM server itself: no API rate or concurrency limit in between.
      limits: { enabled: false },
      llm: { engine: { ...ep.engine }, outputTokens: w.outputTokens },
    },
    traffic: [
      {
        name: BENCH_FLOW,
        arrival: { process: 'closed', users },
        client: { behaviour: 'openai-chat', stream: true, maxTokens: w.maxTokens, promptTokens: w.promptTokens },
      },
    ],
  };
}

/** The validated scenario (a bug if it does not validate: every value came from the fit). */
export function benchScenario(ep: BenchEndpoint, w: Workload, users: number, len: RunLength): Scenario {
  const r = parseScenario(benchScenarioInput(ep, w, users, len), 'calibrated.yaml');
  if (!r.ok) throw new InternalError(`the calibrated scenario does not validate: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return r.scenario;
}

/** calibrated.yaml: the scenario, with a head saying where it came from (`tools`: who wrote the files) and what to change. */
export function benchScenarioYaml(input: ScenarioInput, from: readonly string[], concurrencies: readonly number[], tools = 'vllm bench serve'): string {
  const doc = parseDocument('{}');
  doc.contents = doc.createNode(input, { flow: false }) as typeof doc.contents;
  // Short maps on one line, and token-count distributions (an empirical one is a long list).
  const oneLine = [
    ['endpoint', 'limits'],
    ['endpoint', 'llm', 'engine'],
    ['endpoint', 'llm', 'outputTokens'],
    ['traffic', 0, 'arrival'],
    ['traffic', 0, 'client', 'promptTokens'],
    ['plan', 'calibratedUpTo'],
  ];
  for (const path of oneLine) {
    const node = doc.getIn(path, true);
    if (isCollection(node)) node.flow = true;
  }
  doc.commentBefore = [
    ` Calibrated by loadlab calibrate from ${tools} results: ${from.join(', ')}.`,
    ` endpoint.llm.engine is fitted to their ITL and TTFT at concurrency ${concurrencies.join(', ')};`,
    ' calibration.md shows how far its predictions are from each file.',
    ' One worker, as the bench ran one server; raise workersMax (or run loadlab plan) to size an endpoint.',
    ' limits are off as the bench called the server itself: remove `limits` for the RunPod API limits.',
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}
