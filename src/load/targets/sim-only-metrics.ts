/**
 * Threshold metrics no API answer shows: only a target that sees the simulator itself
 * (in-process) can measure them. A run that asks for one from another target is refused before
 * anything is sent — it could neither pass honestly nor say why it has no data.
 */
import { parseThreshold } from '../../report/threshold-parse.js';
import { thresholdSpec, type Scenario } from '../scenario/schema.js';

/** The scenario's thresholds on cold starts (`cold_start_*`), as written. */
export function coldStartThresholds(sc: Pick<Scenario, 'thresholds'>): string[] {
  return sc.thresholds
    .map((t) => thresholdSpec(t).expr)
    .filter((e) => {
      const t = parseThreshold(e);
      return typeof t !== 'string' && t.metric.startsWith('cold_start_');
    });
}

/** Why a run of `sc` on a target of `kind` that cannot see cold starts is refused; undefined: it is not. */
export function coldStartRefusal(sc: Pick<Scenario, 'thresholds'>, kind: string): string | undefined {
  const exprs = coldStartThresholds(sc);
  if (!exprs.length) return undefined;
  return `cold_start needs the embedded simulator (in-process); target ${kind} cannot observe cold starts (threshold${exprs.length > 1 ? 's' : ''} ${exprs.map((e) => `"${e}"`).join(', ')})`;
}
