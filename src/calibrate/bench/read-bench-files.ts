/**
 * One result file's text, whichever tool wrote it, told apart by its content (never its name):
 * - GuideLLM (`guidellm benchmark --output-path benchmarks.json`): a `benchmarks` array;
 * - GenAI-Perf (`profile_export_genai_perf.json`): `input_config`, or metrics as objects with a `unit`;
 * - vllm bench serve (`--save-result`): its settings and `…_ms` figures at the top level.
 * Each is read by its own reader into BenchRuns; a file may hold several (GuideLLM) and some runs
 * calibrate cannot use (open loops), skipped with why.
 */
import { BENCH_SOURCES, type BenchIssue, type BenchRun, type BenchSource, parseBenchObject } from './bench-file.js';
import { type BenchFileParse, isObject, type Json } from './bench-json.js';
import { parseGenaiPerfObject } from './genai-perf-file.js';
import { parseGuidellmObject } from './guidellm-file.js';

export type { BenchFileParse } from './bench-json.js';

const KNOWN = 'not a result file of vllm bench serve (--save-result), GuideLLM (benchmarks.json) or GenAI-Perf (profile_export_genai_perf.json)';

/** Fields only a vllm bench serve result has at its top level (any one is enough to read it as one). */
const VLLM_FIELDS = ['max_concurrency', 'request_rate', 'median_ttft_ms', 'median_itl_ms', 'completed', 'total_output_tokens', 'input_lens'];

export function benchSourceOf(json: Json): BenchSource | undefined {
  if (Array.isArray(json.benchmarks)) return 'guidellm';
  const unit = (k: string): boolean => isObject(json[k]) && 'unit' in (json[k] as Json);
  if (isObject(json.input_config) || unit('time_to_first_token') || unit('request_latency')) return 'genai-perf';
  if (VLLM_FIELDS.some((k) => k in json)) return 'vllm';
  return undefined;
}

/** One file's text read; every problem of the file at once. */
export function parseBenchText(file: string, text: string): BenchFileParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, issues: [{ file, field: '(file)', reason: `not JSON (${(e as Error).message}): give the JSON result files` }] };
  }
  if (!isObject(json)) return { ok: false, issues: [{ file, field: '(file)', reason: `not a JSON object: ${KNOWN}` }] };
  switch (benchSourceOf(json)) {
    case 'guidellm':
      return parseGuidellmObject(file, json);
    case 'genai-perf':
      return parseGenaiPerfObject(file, json);
    case 'vllm': {
      const p = parseBenchObject(file, json);
      return p.ok ? { ok: true, runs: [p.run], skipped: [] } : p;
    }
    default:
      return { ok: false, issues: [{ file, field: '(file)', reason: KNOWN }] };
  }
}

/** Several files' texts: every run, every skipped run, and every problem of every file. */
export function parseBenchTexts(files: readonly { file: string; text: string }[]): { runs: BenchRun[]; skipped: BenchIssue[]; issues: BenchIssue[] } {
  const out = { runs: [] as BenchRun[], skipped: [] as BenchIssue[], issues: [] as BenchIssue[] };
  for (const { file, text } of files) {
    const p = parseBenchText(file, text);
    if (p.ok) {
      out.runs.push(...p.runs);
      out.skipped.push(...p.skipped);
    } else out.issues.push(...p.issues);
  }
  return out;
}

/** What the runs came from, for a person: `3 GuideLLM benchmark(s) in 1 file(s)`, `2 vllm bench serve file(s)`. */
export function describeSources(runs: readonly BenchRun[]): string {
  const parts: string[] = [];
  for (const source of Object.keys(BENCH_SOURCES) as BenchSource[]) {
    const of = runs.filter((r) => r.source === source);
    if (of.length === 0) continue;
    const files = new Set(of.map((r) => r.file)).size;
    parts.push(files === of.length ? `${files} ${BENCH_SOURCES[source]} file(s)` : `${of.length} ${BENCH_SOURCES[source]} benchmark(s) in ${files} file(s)`);
  }
  return parts.join(', ');
}
