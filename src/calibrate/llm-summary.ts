/** `loadlab calibrate`'s stdout lines for workerConcurrency and llm (none when nothing was fitted). */
import type { Calibration } from './calibration.js';
import { writesWorkerConcurrency } from './calibrated-llm.js';

export function llmSummary(c: Calibration): string[] {
  const out: string[] = [];
  const wc = c.workerConcurrency;
  if (wc?.value !== undefined && writesWorkerConcurrency(c))
    out.push(`  workerConcurrency: ${wc.value}${wc.reached ? '' : ' (a lower bound: never seen full)'}`);
  const l = c.llm;
  if (l === undefined) return out;
  const t = l.outputTokens;
  out.push(
    `  llm.outputTokens: ${t.model === 'none' ? 'nothing to fit' : `${t.model}, p50 ${t.p50}, p95 ${t.p95} tokens, ${t.samples} streams${t.trusted ? '' : ' (see calibration.md)'}`}`,
  );
  const e = l.engine;
  if (e === undefined) return [...out, '  llm.engine:       no stream had two gaps between tokens'];
  const f = (name: string, x: { value: number; trusted: boolean }, unit: string): string => `${name} ${x.value} ${unit}${x.trusted ? '' : ' (?)'}`;
  out.push(
    `  llm.engine:       ${[f('decodeMs', e.decodeMs, 'ms'), f('perSequenceMs', e.perSequenceMs, 'ms'), f('prefillMsPerToken', e.prefillMsPerToken, 'ms'), f('overheadMs', e.overheadMs, 'ms')].join(', ')}`,
    `                    from ${e.itl.streams} streams at ${e.itl.perWorkerMin.toFixed(1)}–${e.itl.perWorkerMax.toFixed(1)} sequences per worker${[e.decodeMs, e.perSequenceMs, e.prefillMsPerToken, e.overheadMs].some((x) => !x.trusted) ? '; (?): not to be trusted, calibration.md says why' : ''}`,
  );
  return out;
}
