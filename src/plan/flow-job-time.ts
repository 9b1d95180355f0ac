/**
 * The mean job time (ms) a flow's jobs take on the endpoint, for the estimates that assume one
 * (the dry run's job-time line, Erlang C's inputs, plan.md's notes). A token trace's flow
 * (`replay` with `format`) on an `llm:` endpoint sends each request its own prompt and answer
 * length (max_tokens with ignore_eos), so its jobs last what the trace's lengths give, not what
 * `llm.outputTokens` would draw: their means come from the trace's scan of its window
 * (load/trace/trace-scan.ts, one streaming pass, cached). Any other flow, or an endpoint without
 * a token model, takes the endpoint's own mean (contract meanJobMs). An `http` flow's request
 * on a load-balancing endpoint goes to the worker's custom route, timed by `jobDurationMs`
 * whatever the token model (docs/endpoint.md "Load-balancing endpoints"): its mean.
 *
 * With an engine, a job alone in its batch: overheadMs, then its prompt prefilled in chunks of
 * maxNumBatchedTokens (each chunk an iteration of decodeMs plus prefillMsPerToken a token; the
 * first token at the end of the last), then decodeMs for each further token. The chunks are
 * counted exactly from the trace's prompt lengths. Without an engine: ttftMs's mean, then
 * interTokenMs's mean for each further token (the token model's rule; the prompt does not count).
 */
import { meanMs } from '../contract/duration-spec.js';
import { type LlmConfig, MAX_OUTPUT_TOKENS, meanJobMs } from '../contract/llm-config.js';
import { traceOf } from '../load/arrivals/replay.js';
import { type BehaviourSpec, submitsJob } from '../load/behaviours/registry.js';
import type { ArrivalSpec } from '../load/arrivals/registry.js';
import { scanTrace } from '../load/trace/trace-scan.js';
import type { Scenario } from '../load/scenario/schema.js';

export interface FlowJobTime {
  /** Mean job time, ms. */
  ms: number;
  /** The trace's mean prompt and answer tokens a request, when its lengths set the job time. */
  trace?: { promptTokens: number; outputTokens: number };
}

/** `client`: the flow's behaviour (an `http` flow's requests take jobDurationMs). */
export function flowJobTime(e: Scenario['endpoint'], a: ArrivalSpec, client?: BehaviourSpec): FlowJobTime {
  if (client?.behaviour === 'http') return { ms: meanMs(e.jobDurationMs) };
  if (!e.llm || a.process !== 'replay' || a.format === undefined) return { ms: meanJobMs(e) };
  const s = scanTrace(traceOf(a));
  if (s.rows === 0) return { ms: meanJobMs(e) };
  const trace = { promptTokens: s.promptTokens / s.rows, outputTokens: s.outputTokens / s.rows };
  return { ms: tokensJobMs(e.llm, s.promptCounts, s.outputCounts, s.rows), trace };
}

/** The mean over requests of a job alone (see above); answers above MAX_OUTPUT_TOKENS count as that, as a request cannot ask for more. */
function tokensJobMs(llm: LlmConfig, prompts: ReadonlyMap<number, number>, outputs: ReadonlyMap<number, number>, rows: number): number {
  let tokens = 0;
  for (const [n, k] of outputs) tokens += Math.min(MAX_OUTPUT_TOKENS, Math.max(1, n)) * k;
  const meanOut = tokens / rows;
  const g = llm.engine;
  if (!g) return meanMs(llm.ttftMs!) + (meanOut - 1) * meanMs(llm.interTokenMs!);
  // Iterations before the first token's: one per further prompt chunk.
  let chunks = 0;
  let promptTokens = 0;
  for (const [p, k] of prompts) {
    chunks += (Math.max(1, Math.ceil(p / g.maxNumBatchedTokens)) - 1) * k;
    promptTokens += p * k;
  }
  return g.overheadMs + (g.prefillMsPerToken * promptTokens) / rows + g.decodeMs * (meanOut + chunks / rows);
}

/** The flows whose jobs take a token trace's lengths (a job-submitting flow on an `llm:` endpoint), by name. */
export function tokenTraceFlows(sc: Scenario): string[] {
  if (!sc.endpoint.llm) return [];
  return sc.traffic.filter((f) => submitsJob(f.client) && f.arrival.process === 'replay' && f.arrival.format !== undefined).map((f) => f.name);
}

/** A job-submitting flow's expected jobs over the run and their time. */
export interface FlowJobs {
  name: string;
  jobs: number;
  time: FlowJobTime;
}

/**
 * The mean job time over job-submitting flows, each weighted by its expected jobs. Without jobs:
 * the endpoint's mean.
 */
export function meanJobTime(sc: Scenario, flows: readonly FlowJobs[]): number {
  let n = 0;
  let sum = 0;
  for (const f of flows) {
    if (!(f.jobs > 0)) continue;
    n += f.jobs;
    sum += f.jobs * f.time.ms;
  }
  return n > 0 ? sum / n : meanJobMs(sc.endpoint);
}
