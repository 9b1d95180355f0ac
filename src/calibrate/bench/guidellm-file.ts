/**
 * A GuideLLM results file (`guidellm benchmark … --output-path benchmarks.json`): `benchmarks`,
 * one per strategy the profile ran. Each names its strategy in `config.strategy` (GuideLLM 0.4
 * and later) or `args.strategy` (0.2, 0.3): `type_` and, for `concurrent`, `streams`.
 *
 * Only closed loops are runs of calibrate: `concurrent` (C = `streams`) and `synchronous` (C = 1).
 * The others send at a rate or all at once (`throughput`, `constant`, `poisson`, a sweep's rates,
 * `trace`): they are skipped, each with why; a file with no closed loop is refused.
 *
 * From each benchmark's `metrics`, the `successful` requests' distributions (`mean`, `median`,
 * `std_dev`, `percentiles.p001`…`p999`): `time_to_first_token_ms` and `inter_token_latency_ms`
 * in ms, `request_latency` in seconds (made ms here). GuideLLM's ITL is each request's mean gap,
 * (last token − first token) / (tokens − 1): what vllm bench serve calls TPOT, so it is both the
 * ITL and the TPOT here; GuideLLM's own `time_per_output_token_ms` counts the wait for the first
 * token and is not read. Counts: `request_totals.successful` (in `metrics` from 0.4, beside it
 * before), `prompt_token_count` and `output_token_count` means, `output_tokens_per_second` mean.
 * With `requests.successful` (each request's `prompt_tokens`, `output_tokens` and
 * `time_to_first_token_ms`), the per-request detail.
 */
import type { BenchDetail, BenchIssue, BenchRun, MetricSummary } from './bench-file.js';
import { at, type BenchFileParse, FieldReader, isObject, type Json, meanOf, summaryAt } from './bench-json.js';

/** GuideLLM's percentile names, as calibrate's keys (`p999` is the 99.9th). */
const PERCENTILES: Record<string, string> = {
  p001: '0.1',
  p01: '1',
  p05: '5',
  p10: '10',
  p25: '25',
  p50: '50',
  p75: '75',
  p90: '90',
  p95: '95',
  p99: '99',
  p999: '99.9',
};

const CLOSED = 'calibrate fits closed loops: GuideLLM --profile concurrent --rate C (C streams) or --profile synchronous';

export function parseGuidellmObject(file: string, json: Json): BenchFileParse {
  const benchmarks = json.benchmarks as unknown[];
  const issues: BenchIssue[] = [];
  const skipped: BenchIssue[] = [];
  const runs: BenchRun[] = [];
  benchmarks.forEach((b, i) => {
    const base = `benchmarks.${i}`;
    if (!isObject(b)) {
      issues.push({ file, field: base, reason: 'not an object: not a GuideLLM benchmark' });
      return;
    }
    const loop = loopOf(file, b, base);
    if ('skip' in loop) skipped.push(loop.skip);
    else if ('issue' in loop) issues.push(loop.issue);
    else {
      const run = benchmarkRun(
        file,
        b,
        base,
        loop.users,
        loop.name,
        issues,
        typeof at(json, 'args.model') === 'string' ? (at(json, 'args.model') as string) : undefined,
      );
      if (run) runs.push(run);
    }
  });
  if (benchmarks.length === 0) issues.push({ file, field: 'benchmarks', reason: 'empty: the file holds no benchmark' });
  else if (runs.length === 0 && issues.length === 0)
    issues.push(...skipped, { file, field: 'benchmarks', reason: `no concurrent or synchronous benchmark: nothing to fit (${CLOSED})` });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, runs, skipped };
}

type Loop = { users: number; name: string } | { skip: BenchIssue } | { issue: BenchIssue };

/** The benchmark's closed loop, or why it has none. */
function loopOf(file: string, b: Json, base: string): Loop {
  const where =
    isObject(b.config) && isObject(b.config.strategy) ? 'config.strategy' : isObject(b.args) && isObject(b.args.strategy) ? 'args.strategy' : undefined;
  if (where === undefined)
    return { issue: { file, field: `${base}.config.strategy`, reason: 'missing (the scheduling strategy: concurrent with its streams, or synchronous)' } };
  const s = (where === 'config.strategy' ? (b.config as Json).strategy : (b.args as Json).strategy) as Json;
  const field = `${base}.${where}`;
  const type = s.type_ ?? s.type;
  if (type === 'synchronous') return { users: 1, name: 'synchronous' };
  if (type === 'concurrent') {
    const streams = s.streams;
    if (typeof streams === 'number' && Number.isInteger(streams) && streams >= 1) return { users: streams, name: `concurrent@${streams}` };
    return {
      issue: {
        file,
        field: `${field}.streams`,
        reason:
          streams === undefined ? 'missing (the concurrent streams: the users of the closed loop)' : `${JSON.stringify(streams)}: not a whole number >= 1`,
      },
    };
  }
  if (typeof type !== 'string') return { issue: { file, field: `${field}.type_`, reason: `${JSON.stringify(type)}: not a GuideLLM strategy type` } };
  const rate = typeof s.rate === 'number' ? ` at ${s.rate} requests/s` : '';
  const how = type === 'throughput' ? 'sends every request at once, not by C users' : 'an open loop (requests sent at a rate, not by C users)';
  return { skip: { file, field: `${field}.type_`, reason: `${type}${rate}: ${how}; ${CLOSED}` } };
}

function benchmarkRun(
  file: string,
  b: Json,
  base: string,
  users: number,
  name: string,
  issues: BenchIssue[],
  reportModel: string | undefined,
): BenchRun | undefined {
  const before = issues.length;
  const r = new FieldReader(file, b, []);
  const m = 'metrics';
  if (!isObject(b.metrics)) {
    issues.push({ file, field: `${base}.metrics`, reason: "missing (the benchmark's statistics)" });
    return undefined;
  }
  const dist = (metric: string, scale: number): MetricSummary =>
    summaryAt(r, `${m}.${metric}.successful`, { mean: 'mean', median: 'median', std: 'std_dev', percentiles: 'percentiles' }, (k) => PERCENTILES[k], scale);
  const ttft = dist('time_to_first_token_ms', 1);
  const itl = dist('inter_token_latency_ms', 1);
  const e2el = dist('request_latency', 1000);
  const detail = detailOf(b);
  const completed =
    r.num(`${m}.request_totals.successful`, { whole: true }) ?? r.num('request_totals.successful', { whole: true }) ?? detail?.outputLens.length;
  const meanIn = r.num(`${m}.prompt_token_count.successful.mean`) ?? (detail ? meanOf(detail.inputLens) : undefined);
  const meanOut = r.num(`${m}.output_token_count.successful.mean`) ?? (detail ? meanOf(detail.outputLens) : undefined);
  const outputThroughput = r.num(`${m}.output_tokens_per_second.successful.mean`);
  const durationS = r.num('duration');
  if (ttft.median === undefined) r.need(`${m}.time_to_first_token_ms.successful.median`, 'fits prefillMsPerToken and overheadMs');
  if (itl.median === undefined) r.need(`${m}.inter_token_latency_ms.successful.median`, 'fits decodeMs and perSequenceMs: stream the answers');
  if (!completed) r.need(`${m}.request_totals.successful`, 'the count of successful requests, above 0');
  if (meanIn === undefined) r.need(`${m}.prompt_token_count.successful.mean`, 'the prompt length');
  if (meanOut === undefined || meanOut < 1) r.need(`${m}.output_token_count.successful.mean`, 'the answer length, at least 1 token a request');
  issues.push(...r.issues.map((i) => ({ ...i, field: `${base}.${i.field}` })));
  if (issues.length > before) return undefined;
  const model = r.str('config.backend.model') ?? r.str('worker.backend_model') ?? reportModel;
  return {
    file,
    part: `${base} (${name})`,
    source: 'guidellm',
    ...(model !== undefined ? { modelId: model } : {}),
    concurrency: users,
    completed: completed!,
    ...(durationS !== undefined ? { durationS } : {}),
    meanInputTokens: meanIn!,
    meanOutputTokens: meanOut!,
    ...(outputThroughput !== undefined ? { outputThroughput } : {}),
    // GuideLLM's ITL is per request (last − first token) / (tokens − 1): vllm bench serve's TPOT.
    metrics: { ttft, itl, tpot: itl, e2el },
    ...(detail ? { detail } : {}),
  };
}

/** The successful requests' lengths and TTFT, when every one has them; else none (the summaries suffice). */
function detailOf(b: Json): BenchDetail | undefined {
  const reqs = isObject(b.requests) ? b.requests.successful : undefined;
  if (!Array.isArray(reqs) || reqs.length === 0) return undefined;
  const d: BenchDetail = { inputLens: [], outputLens: [], ttftsMs: [] };
  for (const q of reqs) {
    if (!isObject(q)) return undefined;
    const { prompt_tokens: p, output_tokens: o, time_to_first_token_ms: t } = q;
    if (!isCount(p) || !isCount(o) || typeof t !== 'number' || !Number.isFinite(t)) return undefined;
    if (o < 1 || t <= 0) continue;
    d.inputLens.push(p);
    d.outputLens.push(o);
    d.ttftsMs.push(t);
  }
  return d.inputLens.length > 0 ? d : undefined;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
