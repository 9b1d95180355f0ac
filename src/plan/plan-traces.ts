/**
 * The token traces a plan replays, as plain data for plan.json (`scenario.traces`) and plan.md:
 * per flow, its trace file (its name only: plan.json has no machine-dependent field), format,
 * window and speed, the requests each run sends, and their mean prompt and answer lengths (the
 * trace's scan, load/trace/trace-scan.ts). Every point and seed replays these same requests. Read
 * once, where the plan starts; a shard stores them in its spec, so shards of different traces
 * are not merged, and the merge needs no trace file.
 */
import { basename } from 'node:path';
import { expectedArrivals } from '../load/arrivals/registry.js';
import { traceOf } from '../load/arrivals/replay.js';
import type { Scenario } from '../load/scenario/schema.js';
import { scanTrace } from '../load/trace/trace-scan.js';

export interface PlanTrace {
  flow: string;
  /** The trace's file name (no folder). */
  file: string;
  format: string;
  fromMs: number;
  /** null: to the trace's end. */
  toMs: number | null;
  speed: number;
  loop: boolean;
  /** Requests each run sends (the window's, within the traffic phase; looped as the flow says). */
  requests: number;
  /** Mean prompt and answer tokens of the window's requests, to 0.1. */
  meanPromptTokens: number;
  meanOutputTokens: number;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

export function planTraces(sc: Scenario): PlanTrace[] {
  const out: PlanTrace[] = [];
  for (const f of sc.traffic) {
    const a = f.arrival;
    if (a.process !== 'replay' || a.format === undefined) continue;
    const s = scanTrace(traceOf(a));
    out.push({
      flow: f.name,
      file: basename(a.file!),
      format: a.format,
      fromMs: a.fromMs,
      toMs: a.toMs ?? null,
      speed: a.speed,
      loop: a.loop,
      requests: Math.round(expectedArrivals(a, sc.durationMs, 0)),
      meanPromptTokens: s.rows ? r1(s.promptTokens / s.rows) : 0,
      meanOutputTokens: s.rows ? r1(s.outputTokens / s.rows) : 0,
    });
  }
  return out;
}

/** plan.md's sentence on a trace. */
export function planTraceText(t: PlanTrace): string {
  const window = t.fromMs > 0 || t.toMs !== null ? `, window [${t.fromMs}, ${t.toMs ?? 'end'}) ms of its clock` : '';
  return (
    `Flow ${t.flow} replays the trace ${t.file} (${t.format}${window}${t.speed === 1 ? '' : `, speed ${t.speed}`}${t.loop ? ', looped' : ''}): ` +
    `the same ${t.requests} requests in every run, ${t.meanPromptTokens} prompt and ${t.meanOutputTokens} answer tokens on average.`
  );
}
