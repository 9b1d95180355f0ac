/**
 * vllm bench serve result files made by the simulator itself, for a round trip: a known engine
 * runs in process behind a closed loop of C streaming users, and each request's send time and
 * chunk instants are written as `vllm bench serve --save-result` would (settings, totals,
 * throughputs, mean/median/std/p99 of ttft, tpot, itl and e2el in ms), with the per-request
 * arrays of `--save-detailed` (times in seconds) when asked. The statistics are computed here,
 * apart from calibrate's own, as numpy computes them.
 */
import type { EngineConfig } from '../../src/contract/llm-config.js';
import { benchScenario } from '../../src/calibrate/bench/bench-scenario.js';
import { simulateStreams } from '../../src/calibrate/bench/bench-simulate.js';
import type { TokenCount } from '../../src/calibrate/bench/bench-workload.js';
import { engineSchema } from '../../src/contract/llm-config.js';

export interface SimBench {
  engine: Partial<EngineConfig> & { decodeMs: number };
  users: number;
  promptTokens: TokenCount;
  outputTokens: TokenCount;
  maxTokens: number;
  /** Sending time of the closed loop (ms). */
  durationMs: number;
  detailed?: boolean;
  workerConcurrency?: number;
}

export async function benchFileFromSim(b: SimBench): Promise<Record<string, unknown>> {
  const engine = engineSchema.parse(b.engine);
  const sc = benchScenario(
    { engine, workerConcurrency: b.workerConcurrency ?? b.users },
    { promptTokens: b.promptTokens, outputTokens: b.outputTokens, maxTokens: b.maxTokens },
    b.users,
    { durationMs: b.durationMs, drainMs: 600_000 },
  );
  const reqs = await simulateStreams(sc);
  const ttft = reqs.map((r) => r.atMs[0]! - r.sentMs);
  const itls = reqs.map((r) => r.atMs.slice(1).map((t, i) => t - r.atMs[i]!));
  const tpot = reqs.filter((r) => r.tokens > 1).map((r) => (r.atMs[r.atMs.length - 1]! - r.atMs[0]!) / (r.tokens - 1));
  const e2el = reqs.map((r) => r.atMs[r.atMs.length - 1]! - r.sentMs);
  const start = Math.min(...reqs.map((r) => r.sentMs));
  const end = Math.max(...e2el.map((e, i) => reqs[i]!.sentMs + e));
  const durationS = (end - start) / 1000;
  const outTokens = reqs.reduce((s, r) => s + r.tokens, 0);
  const inTokens = reqs.reduce((s, r) => s + r.promptTokens, 0);
  const out: Record<string, unknown> = {
    date: '20260101-000000',
    backend: 'vllm',
    model_id: 'sim/known-engine',
    num_prompts: reqs.length,
    request_rate: 'inf',
    burstiness: 1.0,
    max_concurrency: b.users,
    duration: durationS,
    completed: reqs.length,
    failed: 0,
    total_input_tokens: inTokens,
    total_output_tokens: outTokens,
    request_throughput: reqs.length / durationS,
    output_throughput: outTokens / durationS,
    total_token_throughput: (inTokens + outTokens) / durationS,
    ...stats('ttft', ttft),
    ...stats('tpot', tpot),
    ...stats('itl', itls.flat()),
    ...stats('e2el', e2el),
    some_future_field: { kept: true },
  };
  if (b.detailed) {
    out.input_lens = reqs.map((r) => r.promptTokens);
    out.output_lens = reqs.map((r) => r.tokens);
    out.ttfts = ttft.map((t) => t / 1000);
    out.itls = itls.map((l) => l.map((t) => t / 1000));
    out.generated_texts = reqs.map(() => '');
    out.errors = reqs.map(() => '');
  }
  return out;
}

/** mean, median, std and p99 as vllm bench serve names them (numpy: linear percentiles, population std). */
function stats(name: string, xs: number[]): Record<string, number> {
  const s = [...xs].sort((a, b) => a - b);
  const pct = (q: number): number => {
    const h = (s.length - 1) * q;
    const lo = Math.floor(h);
    return s[lo]! + (h - lo) * (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!);
  };
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const std = Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / s.length);
  return { [`mean_${name}_ms`]: mean, [`median_${name}_ms`]: pct(0.5), [`std_${name}_ms`]: std, [`p99_${name}_ms`]: pct(0.99) };
}
