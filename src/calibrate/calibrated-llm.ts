/**
 * calibrated.yaml's batching endpoint: `workerConcurrency` and `llm: {engine, outputTokens}`
 * written over the scenario's when the run fitted them. The engine's maxNumSeqs and
 * maxNumBatchedTokens are not measured: the scenario's stay. `llm` replaces any `ttftMs` and
 * `interTokenMs` (the engine's iterations give the token times) and, for the streamed jobs,
 * `jobDurationMs`.
 */
import type { Document } from 'yaml';
import type { Calibration } from './calibration.js';

/**
 * Whether calibrated.yaml gets the fitted workerConcurrency: a run against a queue endpoint of one
 * job per worker, without streams, leaves the scenario as it was; a load-balancing endpoint's
 * scaler counts requests per worker, so it always gets it.
 */
export function writesWorkerConcurrency(c: Calibration): boolean {
  const v = c.workerConcurrency?.value;
  return v !== undefined && (v > 1 || c.llm !== undefined || c.balancer !== undefined);
}

/** Writes what was fitted into `doc`; returns the names written, and those not to be trusted. */
export function setCalibratedLlm(doc: Document, c: Calibration): { written: string[]; untrusted: string[] } {
  const written: string[] = [];
  const untrusted: string[] = [];
  const wc = c.workerConcurrency;
  if (wc?.value !== undefined && writesWorkerConcurrency(c)) {
    const before = doc.getIn(['endpoint', 'workerConcurrency']);
    // Not seen full: the value is a lower bound, and a higher one of the scenario may be right.
    const value = wc.reached || typeof before !== 'number' ? wc.value : Math.max(wc.value, before);
    doc.setIn(['endpoint', 'workerConcurrency'], value);
    written.push('workerConcurrency');
    if (!wc.reached) untrusted.push('workerConcurrency (a lower bound: the endpoint was never seen full)');
  }
  const llm = c.llm;
  const engine = llm?.engine;
  const tokens = llm?.outputTokens.spec ?? plain(doc.getIn(['endpoint', 'llm', 'outputTokens']));
  if (llm === undefined || engine === undefined || tokens === undefined) return { written, untrusted };
  const kept = plain(doc.getIn(['endpoint', 'llm', 'engine'])) as Record<string, unknown> | undefined;
  const fitted = {
    decodeMs: engine.decodeMs.value,
    perSequenceMs: engine.perSequenceMs.value,
    prefillMsPerToken: engine.prefillMsPerToken.value,
    overheadMs: engine.overheadMs.value,
    ...(kept?.maxNumSeqs !== undefined ? { maxNumSeqs: kept.maxNumSeqs } : {}),
    ...(kept?.maxNumBatchedTokens !== undefined ? { maxNumBatchedTokens: kept.maxNumBatchedTokens } : {}),
  };
  doc.deleteIn(['endpoint', 'llm']);
  doc.setIn(['endpoint', 'llm', 'engine'], doc.createNode(fitted, { flow: true }));
  doc.setIn(['endpoint', 'llm', 'outputTokens'], doc.createNode(tokens, { flow: true }));
  written.push('llm.engine', 'llm.outputTokens');
  for (const k of ['decodeMs', 'perSequenceMs', 'prefillMsPerToken', 'overheadMs'] as const) if (!engine[k].trusted) untrusted.push(`llm.engine.${k}`);
  if (!llm.outputTokens.trusted) untrusted.push('llm.outputTokens');
  return { written, untrusted };
}

/** A YAML node's plain value (a map or sequence node as JS); undefined stays. */
function plain(v: unknown): unknown {
  return v !== null && typeof v === 'object' && 'toJSON' in v && typeof v.toJSON === 'function' ? v.toJSON() : v;
}
