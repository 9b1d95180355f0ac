/**
 * calibrated.yaml: the run's own scenario (its traffic, thresholds, SLOs and plan defaults, its
 * comments kept) with the endpoint's fitted quantities written over the guessed ones: jobDurationMs,
 * coldStartMs, idleTimeoutMs and workersMax, and from streams workerConcurrency and llm
 * (calibrated-llm.ts); of a load-balancing endpoint, its REQUEST_COUNT scaler. A quantity with
 * nothing to fit keeps the scenario's value.
 */
import { type Document, parseDocument } from 'yaml';
import type { Calibration } from './calibration.js';
import { setCalibratedLlm } from './calibrated-llm.js';
import { rebaseTraceFiles } from './rebase-trace-files.js';

/** `dirs`: the scenario's folder and calibrated.yaml's, for a trace's relative path (rebase-trace-files.ts). */
export function calibratedScenario(scenarioYaml: string, c: Calibration, runDir: string, dirs?: { fromDir: string; toDir: string }): string {
  const doc = parseDocument(scenarioYaml);
  // The schema reference was relative to the scenario's own folder; so are trace files.
  doc.delete('$schema');
  if (dirs) rebaseTraceFiles(doc, dirs.fromDir, dirs.toDir);
  const set = (key: string, value: unknown): void => {
    if (value !== undefined) doc.setIn(['endpoint', key], doc.createNode(value, { flow: true }));
  };
  set('jobDurationMs', c.jobDurationMs.spec);
  set('coldStartMs', c.coldStartMs.spec);
  set('idleTimeoutMs', c.idleTimeoutMs.value);
  set('workersMax', c.workersMax.value);
  const llm = setCalibratedLlm(doc, c);
  const scaler = c.balancer ? setBalancerScaler(doc) : undefined;
  const untrusted = [
    c.jobDurationMs.trusted || llm.written.includes('llm.engine') ? '' : 'jobDurationMs',
    c.coldStartMs.trusted ? '' : 'coldStartMs',
    c.idleTimeoutMs.trusted ? '' : 'idleTimeoutMs',
  ].filter(Boolean);
  const head = [
    ` Calibrated by loadlab calibrate from the run in ${runDir} (calibration.md says how well each fits).`,
    ` endpoint: jobDurationMs, coldStartMs, idleTimeoutMs and workersMax are fitted to what that run saw.`,
    ...(scaler
      ? [` A load-balancing endpoint: jobDurationMs from its http requests timed end to end, workers from X-Runpod-Worker-Id; scaler ${scaler}.`]
      : []),
    ...(llm.written.length
      ? [` ${llm.written.join(', ')} too: the engine from its streams (inter-token gaps against sequences per worker, first tokens against prompt tokens).`]
      : []),
    ...(untrusted.length ? [` Too few samples to trust: ${untrusted.join(', ')}.`] : []),
    ...(llm.untrusted.length ? [` Not to be trusted (calibration.md says why): ${llm.untrusted.join(', ')}.`] : []),
  ];
  doc.commentBefore = doc.commentBefore ? `${head.join('\n')}\n\n${doc.commentBefore}` : head.join('\n');
  return doc.toString({ lineWidth: 0 });
}

/**
 * A load-balancing endpoint's scaler: REQUEST_COUNT, the scenario's own when it gives one, else
 * one request per worker's capacity (`workerConcurrency`, as written). Returns how it was set.
 */
function setBalancerScaler(doc: Document): string {
  doc.setIn(['endpoint', 'type'], 'load-balancer');
  if (doc.hasIn(['endpoint', 'scaler'])) return 'kept from the scenario (not measured)';
  const wc = doc.getIn(['endpoint', 'workerConcurrency']);
  const value = typeof wc === 'number' ? wc : 1;
  doc.setIn(['endpoint', 'scaler'], doc.createNode({ type: 'REQUEST_COUNT', value }, { flow: true }));
  return `REQUEST_COUNT with value workerConcurrency (${value}; not measured)`;
}
