/**
 * Checks a threshold before the run: every metric, selector kind, operation, flow and status it
 * names must exist and mean something for that metric, and an `every` window must be a multiple
 * of the windows the run stores. Each problem is a message naming the bad name and, when one is
 * close, the valid one meant ("did you mean …?").
 */
import { OPERATIONS } from '../contract/operations.js';
import { didYouMean } from '../lib/edit-distance.js';
import { METRICS } from './threshold-metrics.js';
import { parseThreshold, type SelectorKind, type Threshold } from './threshold-parse.js';
import { histogramWindowMs, RECORD_WINDOW_MS } from './window-size.js';

/** What the scenario knows; a check without it skips flow names and the stored window. */
export interface ThresholdContext {
  /** Flow names of the scenario. */
  flows?: readonly string[];
  /** Traffic + drain (ms): the longest the run can be, which sets its histogram window. */
  maxRunMs?: number;
  /** The streaming flows (run-stream, streamed openai-chat), and those with goodput targets: a stream metric needs one. */
  streamingFlows?: readonly string[];
  goodputFlows?: readonly string[];
  /** The multi-turn flows (openai-chat with turns): a session metric needs one. */
  turnsFlows?: readonly string[];
}

/** The parsed threshold, or every problem with it. */
export function checkThreshold(expr: string, ctx: ThresholdContext): Threshold | string[] {
  const t = parseThreshold(expr);
  if (typeof t === 'string') return [t];
  const def = METRICS[t.metric];
  if (!def) return [`unknown metric "${t.metric}" in "${t.expr}"${didYouMean(t.metric, Object.keys(METRICS))}`];
  const problems: string[] = [];
  for (const [kind, v] of Object.entries(t.selection) as [SelectorKind, string][]) {
    if (!def.selectors.includes(kind)) {
      const takes = def.selectors.length ? `takes only ${def.selectors.map((k) => `{${k}=…}`).join(', ')}` : 'takes no selector';
      problems.push(`metric "${t.metric}" ${takes}, not {${kind}=${v}} (in "${t.expr}")${def.hint ? `: ${def.hint}` : ''}`);
      continue;
    }
    if (kind === 'flow' && !ctx.flows) continue;
    const known =
      kind === 'operation'
        ? OPERATIONS
        : kind === 'flow'
          ? ctx.flows!
          : kind === 'cause'
            ? (def.causes ?? [])
            : def.statuses === 'http'
              ? undefined
              : (def.statuses ?? []);
    if (known === undefined) {
      if (!/^\d{3}$/.test(v)) problems.push(`status "${v}" in "${t.expr}" is not an HTTP status code (e.g. 429)`);
    } else if (!known.includes(v)) problems.push(`unknown ${kind} "${v}" in "${t.expr}"${didYouMean(v, known)}`);
  }
  if (t.everyMs !== undefined) problems.push(...checkEvery(t, t.everyMs, ctx));
  if (!problems.length) problems.push(...checkStreams(t, ctx));
  return problems.length ? problems : t;
}

/** A stream metric needs a streaming flow among those it selects (goodput: one with targets; a session metric: a multi-turn flow). */
function checkStreams(t: Threshold, ctx: ThresholdContext): string[] {
  const needs = METRICS[t.metric]!.needs;
  if (needs === undefined || ctx.streamingFlows === undefined) return [];
  const have = needs === 'goodput' ? (ctx.goodputFlows ?? []) : needs === 'turns' ? (ctx.turnsFlows ?? []) : ctx.streamingFlows;
  if (t.selection.flow === undefined ? have.length > 0 : have.includes(t.selection.flow)) return [];
  const what =
    needs === 'goodput'
      ? 'a streaming flow with goodput targets (goodput: {ttftMs, tpotMs})'
      : needs === 'turns'
        ? 'a multi-turn flow (openai-chat with turns)'
        : 'a streaming flow (run-stream, or openai-chat with stream: true)';
  return [`metric "${t.metric}" needs ${what}${t.selection.flow === undefined ? '' : `; flow "${t.selection.flow}" is not one`} (in "${t.expr}")`];
}

function checkEvery(t: Threshold, everyMs: number, ctx: ThresholdContext): string[] {
  if (!METRICS[t.metric]!.window)
    return [`metric "${t.metric}" cannot be checked per window (in "${t.expr}"): use a latency or job-time metric, or drop "every"`];
  if (everyMs <= 0 || everyMs % RECORD_WINDOW_MS !== 0)
    return [`"every" window in "${t.expr}" must be a multiple of the ${RECORD_WINDOW_MS / 1000} s recording window`];
  if (ctx.maxRunMs === undefined) return [];
  const stored = histogramWindowMs(ctx.maxRunMs);
  if (everyMs % stored !== 0)
    return [
      `"every" window in "${t.expr}" must be a multiple of ${stored / 1000} s: a run of up to ${Math.round(ctx.maxRunMs / 1000)} s stores ${stored / 1000} s windows`,
    ];
  return [];
}
