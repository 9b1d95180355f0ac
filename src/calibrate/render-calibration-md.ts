/**
 * calibration.md: what was fitted and how well — each quantity's model, its fitted and observed
 * percentiles side by side (the two CDFs at the same probabilities), the KS distance, and where a
 * quantity has too few samples to trust, what run would gather them.
 */
import type { Calibration, CalibrationWithCurves, FittedDuration } from './calibration.js';
import { quantile } from './fit-duration.js';
import { inverse } from './inverse-cdf.js';
import { llmNotes, llmSections, llmTableRows } from './render-llm-calibration.js';

const PS = [0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99];

export function renderCalibrationMarkdown(c: CalibrationWithCurves): string {
  const k = c.calibration;
  const lines = [
    `# loadlab calibrate: ${k.run.scenario}`,
    '',
    `The endpoint ${k.run.target ?? ''} as one run of ${(k.run.elapsedMs / 1000).toFixed(1)} s saw it (seed ${k.run.seed}${k.run.startedAt ? `, started ${k.run.startedAt}` : ''}): ` +
      (k.balancer
        ? `a **load-balancing endpoint** (\`type: load-balancer\`): no status bodies, ${k.balancer.requests} requests its workers served, ${k.balancer.httpRequests} of them http ones timed end to end, ${k.inputs.workers} workers named by \`X-Runpod-Worker-Id\`, ${k.inputs.healthRows} /health rows kept. `
        : `${k.inputs.executionTimes} execution times, ${k.inputs.workers} workers named in status bodies, ${k.inputs.healthRows} /health rows kept. `) +
      "calibrated.yaml is the run's scenario with these values in its `endpoint:`; `loadlab plan calibrated.yaml` sizes workersMax for it.",
    '',
    '| quantity | fitted | samples | fit (KS distance) | trust |',
    '|---|---|---:|---|---|',
    durationRow('jobDurationMs', k.jobDurationMs),
    durationRow('coldStartMs', k.coldStartMs),
    `| idleTimeoutMs | ${k.idleTimeoutMs.value ?? "— (scenario's value kept)"} | ${k.idleTimeoutMs.matched} of ${k.idleTimeoutMs.predicted} stops matched | ${k.idleTimeoutMs.resolutionMs !== undefined ? `/health every ~${k.idleTimeoutMs.resolutionMs} ms` : '—'} | ${trust(k.idleTimeoutMs.trusted)} |`,
    `| workersMax | ${k.workersMax.value ?? "— (scenario's value kept)"} | most workers seen at once | ${k.workersMax.reached ? 'the queue waited at it' : 'never needed more'} | ${k.workersMax.reached ? 'yes' : 'a lower bound'} |`,
    ...llmTableRows(k),
    ...(k.balancer ? ['| scaler | REQUEST_COUNT | — | not measured | — |'] : []),
    '',
    ...notes(k),
  ];
  for (const curve of c.curves) {
    const sorted = curve.samples.slice().sort((a, b) => a - b);
    lines.push(
      `## ${curve.name}: observed against fitted`,
      '',
      `${curve.fit.model}${curve.fit.model === 'lognormal' ? ` (median ${curve.fit.fitted.p50} ms, p95 ${curve.fit.fitted.p95} ms)` : ''}; ` +
        `KS distance ${curve.fit.ks} (a lognormal is accepted up to ${curve.fit.ksLimit}).`,
      '',
      '| percentile | observed (ms) | fitted (ms) |',
      '|---:|---:|---:|',
    );
    for (const p of PS) lines.push(`| p${Math.round(p * 100)} | ${fmt(quantile(sorted, p))} | ${fmt(inverse(curve.fit.cdf, p, sorted[sorted.length - 1]!))} |`);
    lines.push('');
  }
  lines.push(...llmSections(c));
  lines.push(
    '## What gathers each quantity',
    '',
    ...(k.balancer ? BALANCER_GATHER : QUEUE_GATHER),
    "- **idleTimeoutMs**: when idle workers stop after their last job, seen in /health; a tail without arrivals longer than the idle timeout, with /health read often (`--health-every`), gives every worker's stop.",
    "- **workersMax**: the most workers /health counted at once; it is the endpoint's cap only if the queue waited there (a burst above capacity).",
    ...(k.workerConcurrency?.value !== undefined || k.balancer ? LLM_GATHER.slice(0, 1) : []),
    ...(k.llm ? LLM_GATHER.slice(1) : []),
    '',
  );
  return lines.join('\n');
}

function durationRow(name: string, f: FittedDuration): string {
  const what =
    f.model === 'none' ? "— (scenario's value kept)" : f.model === 'constant' ? `constant ${f.p50} ms` : `${f.model}: p50 ${f.p50} ms, p95 ${f.p95} ms`;
  return `| ${name} | ${what} | ${f.samples} | ${f.ks !== undefined ? `${f.ks} (limit ${f.ksLimit})` : '—'} | ${trust(f.trusted)} |`;
}

function notes(k: Calibration): string[] {
  const out = [
    ['jobDurationMs', k.jobDurationMs.note],
    ['coldStartMs', k.coldStartMs.note],
    ['idleTimeoutMs', k.idleTimeoutMs.note],
    ['workersMax', k.workersMax.note],
    ['scaler', k.balancer?.scaler.note],
  ]
    .filter(([, n]) => n)
    .map(([q, n]) => `- **${q}**: ${n}.`)
    .concat(llmNotes(k));
  return out.length ? [...out, ''] : [];
}

const QUEUE_GATHER = [
  "- **jobDurationMs**: every COMPLETED job's `executionTime`; any steady traffic gives plenty.",
  '- **coldStartMs**: a job that finds no worker ready or starting waits for one started for it; its `delayTime` is that cold start. Quiet gaps longer than the idle timeout, each ended by a single job, give one each (scenarios/calibrate-probe.yaml).',
];

const BALANCER_GATHER = [
  "- **jobDurationMs**: the time to response of each `http` request that could not have waited for a worker (not its worker's first, and sent with no more of the run's requests in flight than the workers surely ready could take); steady traffic below the endpoint's capacity gives plenty.",
  "- **coldStartMs**: a request that finds no worker ready or starting waits for one started for it; its time to response less a request's usual time is that cold start. Quiet gaps longer than the idle timeout, each ended by a single request, give one each (scenarios/calibrate-lb-probe.yaml).",
  "- **scaler**: not measured: REQUEST_COUNT, the scenario's own or one request per unit of workerConcurrency.",
];

const LLM_GATHER = [
  "- **workerConcurrency**: the most jobs in progress per running worker /health showed; it is the endpoint's own only if the queue waited while every worker held that many (more streams in flight than the workers take).",
  '- **llm.engine**: streamed chat answers at several concurrency levels (a closed flow whose users step up, `rampUpMs`) with /health read (`--health-every`): decodeMs and perSequenceMs from their inter-token gaps, prefillMsPerToken and overheadMs from their first tokens, with prompts of several lengths and a while below capacity (nothing queued).',
  "- **llm.outputTokens**: every streamed answer's token count; a `maxTokens` above the endpoint's own lengths, or the counts stop there.",
];

const trust = (t: boolean): string => (t ? 'yes' : '**too few samples**');
const fmt = (ms: number): string => (Math.round(ms * 10) / 10).toString();
