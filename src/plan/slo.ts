/**
 * The SLOs a plan must meet. The SLO grammar is the threshold grammar (report/threshold-parse.ts:
 * `metric{selector} <op> number [every Ns]`), checked against the scenario as thresholds are, and
 * evaluated on each run's RunResult. Where they come from, first found: `--slo` flags, the
 * scenario's `slo:` list, its `thresholds:`.
 */
import type { RunResult } from '../report/run-result.js';
import { checkThreshold } from '../report/threshold-check.js';
import { evaluateThreshold, type Threshold } from '../report/thresholds.js';
import { thresholdContext, thresholdSpec, type Scenario } from '../load/scenario/schema.js';

export type SloSource = '--slo' | 'slo' | 'thresholds';

export interface Slos {
  source: SloSource;
  list: Threshold[];
  /** The SLOs the plan added to the list (withBalancerSlo); absent: none. */
  added?: string[];
}

/**
 * What a plan adds to its SLOs when some point is a load-balancing endpoint and no SLO bounds
 * the balancer's failures: a point where the balancer ended a request (no workers within 2 min,
 * a request past 5.5 min, a dropped one) does not meet the SLOs, however fast the rest were.
 * 0 on a queue endpoint, whose failures are its own figures (429s, jobs failed).
 */
export const BALANCER_SLO = 'balancer_failed == 0';

export function withBalancerSlo(s: Slos, anyBalancer: boolean): Slos {
  if (!anyBalancer || s.list.some((t) => t.metric === 'balancer_failed')) return s;
  return { ...s, list: [...s.list, checkThreshold(BALANCER_SLO, {}) as Threshold], added: [BALANCER_SLO] };
}

/** The SLOs, or every problem with the `--slo` flags (each names the flag and the expression). */
export function slosOf(sc: Scenario, flags: readonly string[]): Slos | string[] {
  if (flags.length) {
    const ctx = thresholdContext(sc);
    const problems: string[] = [];
    const list: Threshold[] = [];
    for (const e of flags) {
      const t = checkThreshold(e, ctx);
      if (Array.isArray(t)) problems.push(...t.map((p) => `--slo "${e}": ${p}`));
      else list.push(t);
    }
    return problems.length ? problems : { source: '--slo', list };
  }
  // The scenario's own were checked when it loaded.
  const parse = (e: string) => checkThreshold(e, {}) as Threshold;
  if (sc.slo?.length) return { source: 'slo', list: sc.slo.map(parse) };
  return { source: 'thresholds', list: sc.thresholds.map((t) => parse(thresholdSpec(t).expr)) };
}

/** One SLO on one run: its value (null: no data, which fails) and whether it holds. */
export interface SloValue {
  value: number | null;
  ok: boolean;
}

export function evaluateSlos(r: RunResult, slos: readonly Threshold[]): SloValue[] {
  return slos.map((t) => {
    const v = evaluateThreshold(r, t);
    return { value: v.value, ok: v.ok };
  });
}
