/**
 * The size of a run before it starts: expected requests (the dry-run plan's count, plan.ts) and
 * the wall time they take. A run above `maxRequests` is refused before anything is allocated, so a
 * scenario that validates (1 000 000 arrivals/s for 30 days) cannot start a run that would fill
 * memory for hours.
 */
import { renderPlan } from './dry-run.js';
import type { Scenario } from '../load/scenario/schema.js';

/** `--max-requests` default: about an hour of the embedded simulator on one core. */
export const DEFAULT_MAX_REQUESTS = 2_000_000_000;

/**
 * Simulated requests per wall second (in-process) and requests per wall second in lockstep, rounded
 * down from the measured figures (README "How fast": ~550 000–720 000; lockstep ~1 000).
 */
const IN_PROCESS_PER_SEC = 500_000;
const LOCKSTEP_PER_SEC = 1_000;

export interface RunSize {
  requests: number;
  /** Expected wall time (ms): the traffic phase for an HTTP target, requests at the measured rate otherwise. */
  wallMs: number;
}

export function runSize(sc: Scenario, target: 'in-process' | 'http' | 'lockstep'): RunSize {
  const requests = renderPlan(sc).requests;
  const wallMs = target === 'http' ? sc.durationMs : (1000 * requests) / (target === 'lockstep' ? LOCKSTEP_PER_SEC : IN_PROCESS_PER_SEC);
  return { requests, wallMs };
}

/** A wall time for people: `45 s`, `12 min`, `3.5 h`, `41 days`. */
export function formatWall(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${Math.ceil(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** The reason a run is refused, or undefined when it is within `maxRequests`. */
export function tooLarge(sc: Scenario, target: 'in-process' | 'http' | 'lockstep', maxRequests: number): string | undefined {
  const { requests, wallMs } = runSize(sc, target);
  if (requests <= maxRequests) return undefined;
  return (
    `this run would send about ${requests.toExponential(2)} requests (${formatWall(wallMs)} of wall time${target === 'http' ? '' : ` at ~${target === 'lockstep' ? LOCKSTEP_PER_SEC : IN_PROCESS_PER_SEC} requests per wall second`}), ` +
    `more than --max-requests ${maxRequests}; shorten durationMs, lower the rates, or raise --max-requests`
  );
}
