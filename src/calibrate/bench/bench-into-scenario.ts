/**
 * `loadlab calibrate FILE.json… --scenario YOURS.yaml`: your scenario (your traffic, SLOs and plan)
 * with the worker the bench files fitted. Its `endpoint.llm.engine` becomes the fitted engine
 * (`ttftMs` and `interTokenMs` go: the engine times the tokens); `llm.outputTokens` and
 * `workerConcurrency` stay yours when set (they describe your traffic and your deployment), else
 * take the bench's. Comments and layout are kept (yaml's document API). A trace's relative path is
 * rewritten for calibrated.yaml's folder (`dirs`: rebase-trace-files.ts).
 */
import { isMap, parseDocument } from 'yaml';
import type { EngineConfig } from '../../contract/llm-config.js';
import type { BenchEndpoint } from './bench-scenario.js';
import { rebaseTraceFiles } from '../rebase-trace-files.js';

export interface IntoScenario {
  /** calibrated.yaml's text, or the file's problem (it is not a YAML mapping with an endpoint). */
  text?: string;
  problem?: string;
}

/** `tools`: who wrote the files (`vllm bench serve`, `GuideLLM`, `GenAI-Perf`). */
export function benchIntoScenario(
  text: string,
  ep: BenchEndpoint,
  outputTokens: unknown,
  from: readonly string[],
  tools = 'vllm bench serve',
  calibratedUpTo?: unknown,
  dirs?: { fromDir: string; toDir: string },
): IntoScenario {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { problem: doc.errors[0]!.message };
  if (!isMap(doc.contents)) return { problem: 'not a YAML mapping' };
  if (dirs) rebaseTraceFiles(doc, dirs.fromDir, dirs.toDir);
  if (!doc.hasIn(['endpoint'])) doc.setIn(['endpoint'], doc.createNode({ id: 'llm' }));
  const llm = ['endpoint', 'llm'];
  if (!isMap(doc.getIn(llm, true))) doc.setIn(llm, doc.createNode({}));
  for (const k of ['ttftMs', 'interTokenMs']) doc.deleteIn([...llm, k]);
  const engine = doc.createNode({ ...ep.engine } satisfies EngineConfig, { flow: true });
  engine.commentBefore = ` Fitted by loadlab calibrate to ${tools} results: ${from.join(', ')} (calibration.md)`;
  doc.setIn([...llm, 'engine'], engine);
  if (!doc.hasIn([...llm, 'outputTokens'])) doc.setIn([...llm, 'outputTokens'], doc.createNode(outputTokens, { flow: true }));
  if (!doc.hasIn(['endpoint', 'workerConcurrency'])) doc.setIn(['endpoint', 'workerConcurrency'], ep.workerConcurrency);
  // How far the engine was measured: plan flags a recommendation beyond it.
  if (calibratedUpTo !== undefined) {
    if (!isMap(doc.getIn(['plan'], true))) doc.setIn(['plan'], doc.createNode({}));
    doc.setIn(['plan', 'calibratedUpTo'], doc.createNode(calibratedUpTo, { flow: true }));
  }
  return { text: doc.toString({ lineWidth: 0 }) };
}
