/**
 * A GenAI-Perf result file (`genai-perf profile … --concurrency C --streaming` writes
 * `profile_export_genai_perf.json` in its artifacts directory): one run. Each metric is an object
 * with its `unit` and `avg`, `p50`, `p99`, …, `std`: `time_to_first_token`,
 * `inter_token_latency` and `request_latency` (unit `ms`; `s`, `us` and `ns` are converted too),
 * `output_token_throughput` (`avg`, tokens/s), `request_count` (`avg`), `input_sequence_length`
 * and `output_sequence_length` (`avg`, tokens). The settings are in `input_config`: the
 * concurrency in `perf_analyzer.stimulus.concurrency` (newer GenAI-Perf) or `concurrency` (older);
 * a `request_rate` stimulus is an open loop, refused.
 *
 * GenAI-Perf's ITL is each request's (latency − TTFT) / (tokens − 1): what vllm bench serve calls
 * TPOT, so it is both the ITL and the TPOT here.
 */
import type { BenchRun, MetricSummary } from './bench-file.js';
import { at, type BenchFileParse, FieldReader, isObject, type Json, summaryAt } from './bench-json.js';

/** ms in one of each time unit GenAI-Perf may write. */
const MS_PER: Record<string, number> = { ms: 1, s: 1000, sec: 1000, us: 1e-3, ns: 1e-6 };

const CLOSED = 'calibrate fits closed loops: genai-perf profile --concurrency C';

export function parseGenaiPerfObject(file: string, json: Json): BenchFileParse {
  const r = new FieldReader(file, json, []);
  const users = concurrencyOf(r);
  const time = (metric: string): MetricSummary => {
    if (!isObject(json[metric])) return { percentiles: {} };
    const unit = at(json, `${metric}.unit`) ?? 'ms';
    const scale = typeof unit === 'string' ? MS_PER[unit] : undefined;
    if (scale === undefined) {
      r.issue(`${metric}.unit`, `${JSON.stringify(unit)}: not a unit of time (ms, s, us, ns)`);
      return { percentiles: {} };
    }
    return summaryAt(r, metric, { mean: 'avg', median: 'p50', std: 'std' }, (k) => /^p(\d+(?:\.\d+)?)$/.exec(k)?.[1], scale);
  };
  for (const m of ['time_to_first_token', 'inter_token_latency', 'request_latency'])
    if (json[m] !== undefined && !isObject(json[m])) r.issue(m, `${JSON.stringify(json[m])}: not a GenAI-Perf metric (an object with unit, avg, p50, …)`);
  const ttft = time('time_to_first_token');
  const itl = time('inter_token_latency');
  const e2el = time('request_latency');
  const completed = r.num('request_count.avg', { whole: true });
  const meanIn = r.num('input_sequence_length.avg');
  const meanOut = r.num('output_sequence_length.avg');
  const outputThroughput = r.num('output_token_throughput.avg');
  if (ttft.median === undefined) r.need('time_to_first_token.p50', 'fits prefillMsPerToken and overheadMs: profile with --streaming');
  if (itl.median === undefined) r.need('inter_token_latency.p50', 'fits decodeMs and perSequenceMs: profile with --streaming');
  if (!completed) r.need('request_count.avg', 'the count of completed requests, above 0');
  if (meanIn === undefined) r.need('input_sequence_length.avg', 'the prompt length');
  if (meanOut === undefined || meanOut < 1) r.need('output_sequence_length.avg', 'the answer length, at least 1 token a request');
  if (r.issues.length > 0 || users === undefined) return { ok: false, issues: r.issues };
  const names = at(json, 'input_config.model_names') ?? at(json, 'input_config.model');
  const model = Array.isArray(names) && typeof names[0] === 'string' ? names.join(', ') : undefined;
  const run: BenchRun = {
    file,
    source: 'genai-perf',
    ...(model !== undefined ? { modelId: model } : {}),
    concurrency: users,
    completed: completed!,
    meanInputTokens: meanIn!,
    meanOutputTokens: meanOut!,
    ...(outputThroughput !== undefined ? { outputThroughput } : {}),
    metrics: { ttft, itl, tpot: itl, e2el },
  };
  return { ok: true, runs: [run], skipped: [] };
}

/** The closed loop's users, or an issue: a request rate, another stimulus, or none given. */
function concurrencyOf(r: FieldReader): number | undefined {
  const stimulus = 'input_config.perf_analyzer.stimulus';
  const s = at(r.root, stimulus);
  const users = (path: string): number | undefined => {
    const c = r.num(path, { whole: true, what: 'a whole number >= 1' });
    if (c === 0) r.issue(path, '0: not a whole number >= 1');
    return c === 0 ? undefined : c;
  };
  if (isObject(s)) {
    if (s.concurrency !== undefined && s.concurrency !== null) return users(`${stimulus}.concurrency`);
    const kind = Object.keys(s)[0];
    if (kind === 'request_rate') r.issue(`${stimulus}.request_rate`, `${JSON.stringify(s.request_rate)}: an open-loop run; ${CLOSED}`);
    else r.issue(stimulus, `${kind ?? '{}'}: not a closed loop of C users; ${CLOSED}`);
    return undefined;
  }
  const rate = at(r.root, 'input_config.request_rate');
  if (rate !== undefined && rate !== null) {
    r.issue('input_config.request_rate', `${JSON.stringify(rate)}: an open-loop run; ${CLOSED}`);
    return undefined;
  }
  const c = users('input_config.concurrency');
  if (c === undefined) r.need('input_config.perf_analyzer.stimulus.concurrency', `the users of the closed loop; ${CLOSED}`);
  return c;
}
