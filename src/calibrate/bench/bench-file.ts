/**
 * One `vllm bench serve --save-result` file, read and checked: its settings (`max_concurrency`,
 * `request_rate`, `num_prompts`, `model_id`), its results (totals, throughputs, and for each of
 * ttft, tpot, itl and e2el the mean, median, std and `p{N}` in ms) and, with `--save-detailed`,
 * the per-request arrays (`input_lens`, `output_lens`, `ttfts` and `itls` in seconds, `errors`).
 * Unknown fields are kept out of the way (other vLLM versions add some); a field the fit needs
 * that is missing or of the wrong type is an issue naming the file, the field and what it is for.
 */
import { z } from 'zod';

export const BENCH_METRICS = ['ttft', 'tpot', 'itl', 'e2el'] as const;
/** The tool that wrote a result file (read-bench-files.ts tells them apart by their content). */
export type BenchSource = 'vllm' | 'guidellm' | 'genai-perf';

export const BENCH_SOURCES: Record<BenchSource, string> = {
  vllm: 'vllm bench serve',
  guidellm: 'GuideLLM',
  'genai-perf': 'GenAI-Perf',
};

/** The tools, for a person: `vllm bench serve`, `GuideLLM and GenAI-Perf`. */
export const sourceNames = (sources: readonly BenchSource[]): string => [...new Set(sources)].map((s) => BENCH_SOURCES[s]).join(' and ');
export type BenchMetric = (typeof BENCH_METRICS)[number];

/** A metric's summary in ms: mean, median, std and the percentiles the run asked for (`p99`, `p99.9`, … as keys `99`, `99.9`). */
export interface MetricSummary {
  mean?: number;
  median?: number;
  std?: number;
  percentiles: Record<string, number>;
}

/** The requests of a --save-detailed file that succeeded: lengths in tokens, times in ms. */
export interface BenchDetail {
  inputLens: number[];
  outputLens: number[];
  ttftsMs: number[];
  /** Each request's gaps between chunks (ms); absent when the tool keeps no gaps (GuideLLM). */
  itlsMs?: number[][];
}

export interface BenchRun {
  file: string;
  source: BenchSource;
  /** Which run of a file of several (GuideLLM): `benchmarks.2 (concurrent@4)`. */
  part?: string;
  modelId?: string;
  /** `--max-concurrency`: the users of the closed loop. */
  concurrency: number;
  numPrompts?: number;
  completed: number;
  failed?: number;
  /** Seconds from the first request to the last answer. */
  durationS?: number;
  /** Mean tokens of a completed request's prompt and answer. */
  meanInputTokens: number;
  meanOutputTokens: number;
  /** Output tokens/s of the whole run. */
  outputThroughput?: number;
  metrics: Record<BenchMetric, MetricSummary>;
  detail?: BenchDetail;
}

const num = z.number().finite();
const count = z.number().int().nonnegative();

/** The fields read; the rest pass through untouched (`z.looseObject`). */
export const benchFileSchema = z.looseObject({
  model_id: z.string().optional(),
  num_prompts: count.nullish(),
  request_rate: z.union([num, z.string()]).nullish(),
  max_concurrency: z.number().int().positive().nullish(),
  duration: num.nullish(),
  completed: count.nullish(),
  failed: count.nullish(),
  total_input_tokens: count.nullish(),
  total_output_tokens: count.nullish(),
  request_throughput: num.nullish(),
  output_throughput: num.nullish(),
  input_lens: z.array(count).nullish(),
  output_lens: z.array(count).nullish(),
  ttfts: z.array(num.nullable()).nullish(),
  itls: z.array(z.array(num)).nullish(),
  errors: z.array(z.string().nullable()).nullish(),
});

const PERCENTILE_KEY = /^p(\d+(?:\.\d+)?)_(ttft|tpot|itl|e2el)_ms$/;

/** A bench file's problem: `file: field: reason`. */
export interface BenchIssue {
  file: string;
  field: string;
  reason: string;
}

/** A run as calibration.json and calibration.md name it: its file, and which run of it. */
export const runName = (r: BenchRun): string => (r.part === undefined ? r.file : `${r.file} ${r.part}`);

export type BenchParse = { ok: true; run: BenchRun } | { ok: false; issues: BenchIssue[] };

/** Reads one file's text; every problem found in one pass. */
export function parseBenchFile(file: string, text: string): BenchParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, issues: [{ file, field: '(file)', reason: `not JSON (${(e as Error).message})` }] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, issues: [{ file, field: '(file)', reason: 'not a JSON object: not a vllm bench serve --save-result file' }] };
  return parseBenchObject(file, json as Record<string, unknown>);
}

/** A vllm bench serve file's JSON object. */
export function parseBenchObject(file: string, json: Record<string, unknown>): BenchParse {
  const parsed = benchFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ file, field: i.path.join('.') || '(file)', reason: i.message })) };
  const f = parsed.data;
  const raw = json as Record<string, unknown>;
  const issues: BenchIssue[] = [];
  // A field already refused (wrong type) is not also missing.
  const need = (field: string, why: string): void => {
    if (!issues.some((i) => i.field === field)) issues.push({ file, field, reason: `missing (${why})` });
  };
  const metrics = Object.fromEntries(BENCH_METRICS.map((m) => [m, summaryOf(raw, m, file, issues)])) as Record<BenchMetric, MetricSummary>;

  if (f.max_concurrency == null) need('max_concurrency', 'the users of the closed loop: run vllm bench serve with --max-concurrency');
  if (typeof f.request_rate === 'number' || (typeof f.request_rate === 'string' && f.request_rate !== 'inf'))
    issues.push({
      file,
      field: 'request_rate',
      reason: `${f.request_rate}: an open-loop run; calibrate fits closed loops (--request-rate inf, the default, with --max-concurrency)`,
    });
  if (metrics.itl.median === undefined && metrics.tpot.median === undefined) need('median_itl_ms', 'fits decodeMs and perSequenceMs (or median_tpot_ms)');
  if (metrics.ttft.median === undefined) need('median_ttft_ms', 'fits prefillMsPerToken and overheadMs');
  const detail = detailOf(f, file, issues);
  const completed = f.completed ?? detail?.outputLens.length;
  if (!completed) need('completed', 'the count of completed requests, above 0');
  const meanIn = detail ? mean(detail.inputLens) : f.total_input_tokens != null && completed ? f.total_input_tokens / completed : undefined;
  const meanOut = detail ? mean(detail.outputLens) : f.total_output_tokens != null && completed ? f.total_output_tokens / completed : undefined;
  if (meanIn === undefined) need('total_input_tokens', 'the prompt length');
  if (meanOut === undefined || meanOut < 1) need('total_output_tokens', 'the answer length, at least 1 token a request');
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    run: {
      file,
      source: 'vllm',
      ...(f.model_id !== undefined ? { modelId: f.model_id } : {}),
      concurrency: f.max_concurrency!,
      ...(f.num_prompts != null ? { numPrompts: f.num_prompts } : {}),
      completed: completed!,
      ...(f.failed != null ? { failed: f.failed } : {}),
      ...(f.duration != null ? { durationS: f.duration } : {}),
      meanInputTokens: meanIn!,
      meanOutputTokens: meanOut!,
      ...(f.output_throughput != null ? { outputThroughput: f.output_throughput } : {}),
      metrics,
      ...(detail ? { detail } : {}),
    },
  };
}

/** `mean_…_ms`, `median_…_ms`, `std_…_ms` and `p{N}_…_ms` of one metric; a present field that is not a number is an issue. */
function summaryOf(raw: Record<string, unknown>, m: BenchMetric, file: string, issues: BenchIssue[]): MetricSummary {
  const out: MetricSummary = { percentiles: {} };
  const read = (field: string): number | undefined => {
    const v = raw[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
    issues.push({ file, field, reason: `${JSON.stringify(v)}: not a number of ms >= 0` });
    return undefined;
  };
  for (const k of ['mean', 'median', 'std'] as const) {
    const v = read(`${k}_${m}_ms`);
    if (v !== undefined) out[k] = v;
  }
  for (const key of Object.keys(raw)) {
    const hit = PERCENTILE_KEY.exec(key);
    if (hit?.[2] !== m) continue;
    const v = read(key);
    if (v !== undefined) out.percentiles[hit[1]!] = v;
  }
  return out;
}

/** The successful requests of a --save-detailed file; undefined without its arrays. Arrays of different lengths are an issue. */
function detailOf(f: z.infer<typeof benchFileSchema>, file: string, issues: BenchIssue[]): BenchDetail | undefined {
  const { input_lens: ins, output_lens: outs, ttfts, itls, errors } = f;
  if (!ins || !outs || !ttfts) return undefined;
  const n = ins.length;
  for (const [field, a] of [
    ['output_lens', outs],
    ['ttfts', ttfts],
    ['itls', itls],
    ['errors', errors],
  ] as const)
    if (a && a.length !== n) issues.push({ file, field, reason: `${a.length} entries, input_lens has ${n}` });
  if (issues.length > 0) return undefined;
  const itlsMs: number[][] = [];
  const d: BenchDetail = { inputLens: [], outputLens: [], ttftsMs: [], itlsMs };
  for (let i = 0; i < n; i++) {
    // A failed request has an error text and no output (vLLM keeps its row).
    const t = ttfts[i];
    if (errors?.[i] || !outs[i] || t == null || t <= 0) continue;
    d.inputLens.push(ins[i]!);
    d.outputLens.push(outs[i]!);
    d.ttftsMs.push(t * 1000);
    itlsMs.push((itls?.[i] ?? []).map((s) => s * 1000));
  }
  return d.inputLens.length > 0 ? d : undefined;
}

function mean(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
