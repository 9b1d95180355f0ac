/**
 * Where a plan's recommendation leaves what its engine was measured on (`plan.calibratedUpTo`,
 * written by `loadlab calibrate` from benchmark files) or what its KV cache holds: a point whose
 * workers hold more requests than the sweep had in flight is extrapolated, and one whose requests
 * do not all fit in a worker's cache makes them wait inside the engine (their TTFT grows with the
 * wait). The flags are plain sentences for stdout, plan.md and plan.html.
 */
import { meanMs } from '../contract/duration-spec.js';
import type { Scenario } from '../load/scenario/schema.js';
import type { Knobs } from './grid.js';
import type { PlanTrace } from './plan-traces.js';

/** What the flags compare a point against, read from the scenario once. */
export interface FitRange {
  /** Requests a worker holds unless the grid says otherwise (endpoint.workerConcurrency). */
  workerConcurrency: number;
  calibratedUpTo?: { concurrency: number; kvCache: 'given' | 'fitted' | 'not-reached' };
  kvCacheTokens?: number;
  /** A request's prompt and whole answer (mean tokens): what it holds in the cache at its end. */
  tokensPerRequest?: number;
}

/**
 * `traces`: the token traces the flows replay (plan-traces.ts, from the plan's spec: no file is
 * read here). A trace's flow sends its own prompt and answer lengths, so its requests hold their
 * means; another flow's, its promptTokens and llm.outputTokens. The largest of the flows counts.
 */
export function fitRangeOf(sc: Scenario, traces: readonly PlanTrace[] = []): FitRange | undefined {
  const engine = sc.endpoint.llm?.engine;
  if (engine === undefined) return undefined;
  let prompt = 0;
  let traced = 0;
  for (const f of sc.traffic) {
    const t = traces.find((x) => x.flow === f.name);
    if (t) {
      traced = Math.max(traced, t.meanPromptTokens + t.meanOutputTokens);
      continue;
    }
    const spec = (f.client as { promptTokens?: Parameters<typeof meanMs>[0] }).promptTokens;
    if (spec !== undefined) prompt = Math.max(prompt, meanMs(spec));
  }
  const untraced =
    traces.length > 0 && sc.traffic.every((f) => traces.some((x) => x.flow === f.name)) ? 0 : Math.max(1, prompt) + meanMs(sc.endpoint.llm!.outputTokens);
  return {
    workerConcurrency: sc.endpoint.workerConcurrency,
    ...(sc.plan?.calibratedUpTo ? { calibratedUpTo: sc.plan.calibratedUpTo } : {}),
    ...(engine.kvCacheTokens !== undefined ? { kvCacheTokens: engine.kvCacheTokens } : {}),
    tokensPerRequest: Math.max(traced, untraced),
  };
}

/** The flags of the point with these knobs (none: within what was measured). */
export function extrapolationFlags(r: FitRange | undefined, knobs: Knobs | undefined): string[] {
  if (r === undefined) return [];
  const k = knobs?.workerConcurrency;
  const c = typeof k === 'number' ? k : r.workerConcurrency;
  const flags: string[] = [];
  const up = r.calibratedUpTo;
  if (up !== undefined && c > up.concurrency)
    flags.push(
      `extrapolated: its workers hold ${c} requests at once, beyond the ${up.concurrency} in flight the calibration measured${up.kvCache === 'not-reached' ? "; the KV cache's size is unknown there (the sweep never reached it): measure a sweep up to this concurrency, or give calibrate --kv-cache-tokens" : ''}`,
    );
  if (r.kvCacheTokens !== undefined && r.tokensPerRequest !== undefined) {
    const fit = Math.floor(r.kvCacheTokens / r.tokensPerRequest);
    if (c > fit)
      flags.push(
        `past the KV cache: about ${fit} of the ${c} requests a worker holds fit in its cache (kvCacheTokens ${r.kvCacheTokens}, about ${Math.round(r.tokensPerRequest)} tokens a request); the rest wait inside the engine and their TTFT grows with the wait`,
      );
  }
  return flags;
}
