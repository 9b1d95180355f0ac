/**
 * calibration.md for vllm bench serve results: the fitted engine with each parameter's vLLM
 * meaning and where it came from, then for every file the figures it measured against the
 * simulator's prediction, with the relative error, so the reader sees how far to trust the fit.
 */
import type { LevelFigures } from './bench-metrics.js';
import type { BenchCalibration, FigureRow } from './bench-calibration.js';
import { sourceNames } from './bench-file.js';
import type { TokenCount } from './bench-workload.js';

/** Column heads of the comparison, in order. */
export const FIGURE_HEADS: Record<keyof LevelFigures, string> = {
  ttftP50: 'TTFT p50 (ms)',
  ttftP99: 'TTFT p99 (ms)',
  itlP50: 'ITL p50 (ms)',
  tpotP50: 'TPOT p50 (ms)',
  e2elP50: 'E2E p50 (ms)',
  outputTokensPerS: 'output tok/s',
};
/** An error beyond this is shown in bold. */
const LOUD = 0.1;

const KV_FROM = {
  given: 'given (--kv-cache-tokens)',
  fitted: "fitted: the sweep reached the cache's limit",
  'not-reached': 'unknown: the sweep never reached the limit (none modelled)',
} as const;

const PREFILL_FROM = {
  'input-length': 'TTFT against prompt length (detailed arrays)',
  concurrency: 'the rise of TTFT with concurrency',
  none: 'not separable with one level: 0',
} as const;

export function renderBenchMarkdown(c: BenchCalibration): string {
  const e = c.endpoint.engine;
  const users = c.levels.map((l) => l.concurrency);
  const models = [...new Set(c.levels.map((l) => l.model).filter(Boolean))];
  const lines = [
    `# loadlab calibrate: ${sourceNames(c.sources)} results`,
    '',
    `${c.files.length} ${c.sources.includes('guidellm') ? 'run' : 'file'}(s)${models.length ? ` of ${models.join(', ')}` : ''}, at ${c.sources.every((s) => s === 'vllm') ? '--max-concurrency' : 'concurrency'} ${users.join(', ')}. ` +
      `calibrated.yaml is one worker with the engine below and a closed loop of ${Math.max(...users)} streaming users: ` +
      '`loadlab run calibrated.yaml` replays the bench on the simulator; raise `workersMax` (or `loadlab plan calibrated.yaml`) to size an endpoint.',
    '',
    '## The fitted worker',
    '',
    '| parameter | value | in vLLM | from |',
    '|---|---:|---|---|',
    `| decodeMs | ${e.decodeMs} | one engine step with one sequence decoding: the ITL at --max-concurrency 1 | ITL medians against concurrency |`,
    `| perSequenceMs | ${e.perSequenceMs} | how much a step grows per further sequence in the batch | ITL medians against concurrency |`,
    `| prefillMsPerToken | ${e.prefillMsPerToken} | how much a step grows per prompt token prefilled in it (chunked prefill) | ${PREFILL_FROM[c.fit.prefillFrom]} |`,
    `| overheadMs | ${e.overheadMs} | from a request's arrival to its place in a batch: HTTP, tokenization, scheduling | TTFT medians |`,
    `| maxNumSeqs | ${e.maxNumSeqs} | --max-num-seqs: sequences in one batch | the server's setting (not in the files) |`,
    `| maxNumBatchedTokens | ${e.maxNumBatchedTokens} | --max-num-batched-tokens: tokens one step takes, prompt chunks included | the server's setting (not in the files) |`,
    `| frontEndMs | ${e.frontEndMs} | the API server's CPU per request, a queue in front of the engine (--api-server-count ${e.apiServerCount}) | ${e.frontEndMs > 0 ? "the joint fit: TTFT's growth with the requests arriving together that prefill does not explain" : 'none needed: the rounds explained TTFT'} |`,
    `| kvCacheTokens | ${e.kvCacheTokens ?? '—'} | "GPU KV cache size: N tokens": what the cache holds; a request waits in the engine when its prompt's blocks are not free | ${KV_FROM[c.fit.kvCache.status]} |`,
    `| workerConcurrency | ${c.endpoint.workerConcurrency} | requests the server holds at once | the largest --max-concurrency |`,
    `| outputTokens | ${tokens(c.endpoint.outputTokens)} | answer length (max_tokens ${c.endpoint.maxTokens}) | the files |`,
    `| promptTokens | ${tokens(c.endpoint.promptTokens)} | prompt length | the files |`,
    '',
    `The first guess was decodeMs ${c.fit.initial.decodeMs}, perSequenceMs ${c.fit.initial.perSequenceMs}, prefillMsPerToken ${c.fit.initial.prefillMsPerToken}, overheadMs ${c.fit.initial.overheadMs}; ` +
      `${c.fit.rounds} round(s) against the simulator left the largest miss on the fitted ITL and TTFT medians at ${pct(c.fit.miss)}.`,
    '',
    ...c.fit.notes.map((n) => `- ${n}.`),
    ...(c.fit.notes.length ? [''] : []),
    '## Measured against predicted',
    '',
    "Each file's run predicted by the simulator: the fitted worker at the file's concurrency with the file's prompt and answer lengths, " +
      `in virtual time. Cells: measured → predicted (predicted / measured − 1); errors beyond ${LOUD * 100} % in bold, — where the file has no such figure.`,
    '',
    `| file | C | requests simulated | ${Object.values(FIGURE_HEADS).join(' | ')} |`,
    `|---|---:|---:|${Object.keys(FIGURE_HEADS)
      .map(() => '---:')
      .join('|')}|`,
  ];
  for (const l of c.levels)
    lines.push(
      `| ${l.file} | ${l.concurrency} | ${l.simulatedRequests} | ${(Object.keys(FIGURE_HEADS) as (keyof LevelFigures)[]).map((k) => cell(l.figures[k])).join(' | ')} |`,
    );
  lines.push('', ...trustLines(c), '');
  return lines.join('\n');
}

function cell(f: FigureRow): string {
  if (f.measured === undefined) return '—';
  const m = fmt(f.measured);
  if (f.predicted === undefined || f.error === undefined) return `${m} → —`;
  const err = pct(f.error);
  return `${m} → ${fmt(f.predicted)} (${Math.abs(f.error) > LOUD ? `**${err}**` : err})`;
}

/** Each figure's error largest in size over the files (`TTFT p50 (ms) +3.1 %, …`): calibration.md's and the command's stdout. */
export function worstErrors(levels: readonly { figures: Record<keyof LevelFigures, FigureRow> }[]): string {
  return (Object.keys(FIGURE_HEADS) as (keyof LevelFigures)[])
    .map((k) => {
      const errs = levels.map((l) => l.figures[k].error).filter((x): x is number => x !== undefined);
      return errs.length ? `${FIGURE_HEADS[k]} ${pct(errs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a)))}` : undefined;
    })
    .filter(Boolean)
    .join(', ');
}

/** The worst error of each figure over the files, and what the model leaves out. */
function trustLines(c: BenchCalibration): string[] {
  return [
    '## How far to trust it',
    '',
    `Largest error per figure over the files: ${worstErrors(c.levels)}.`,
    '',
    '- The errors above are on the files the fit saw. A concurrency between two of them is usually as close; one beyond the largest is an extrapolation: measure it.',
    '- An engine step is linear in the batch and in the prompt tokens. A GPU that saturates (throughput flat past some concurrency) grows its steps faster than that: fit the levels up to the saturation, or expect ITL to be under-predicted above it.',
    '- Client-side gaps between requests, and a slow first request (warm-up), are not simulated: they lower the measured tokens/s at low concurrency.',
  ];
}

function tokens(t: TokenCount): string {
  if (typeof t === 'number') return `${t}`;
  if (t.dist === 'empirical') {
    const s = [...t.samplesMs].sort((a, b) => a - b);
    return `empirical, ${s.length} samples, ${s[0]}–${s[s.length - 1]}`;
  }
  return JSON.stringify(t);
}

const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
