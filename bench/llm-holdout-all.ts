/**
 * The acceptance protocol of `loadlab calibrate` over every published sweep in
 * bench/fixtures/public-sweeps.ts (not a benchmark of speed, and not in the test suite): each
 * sweep is written as vllm bench serve result files, the engine is fitted to three of its rows as
 * a user would pick them (lowest, middle and highest; and the three lowest, to show extrapolation
 * upward), and the simulator's prediction for every other row is set against what was published
 * there. A comparison is within tolerance when ITL or TPOT p50 (whichever the sweep publishes),
 * E2E p50 and output tokens/s are within 10 %, TTFT p50 within 35 %. Printed: per sweep and split
 * the held-out table, the fitted engine, and the share of comparisons within tolerance; then the
 * shares per sweep and in all.
 *
 *   npm run build && node dist/bench/llm-holdout-all.js            (BENCH=llm-holdout-all npm run bench)
 *   ONLY=dielabs-fp16kv-2048-256 …                                  one sweep (its id)
 *   KV_FROM_RUNNING=1 …                                             also hand calibrate the KV cache a sweep
 *                                                                   implies (published running ceiling × (prompt + output))
 *
 * How published figures become bench files: a sweep's latency figures go into the `median_*`
 * fields; a sweep that publishes means (`stat: 'mean'`) has them there as stand-ins. A sweep whose
 * per-token figure is a per-request TPOT (GuideLLM's "inter-token latency") has it in
 * `median_tpot_ms` alone (calibrate then fits the token gap to TPOT); its held-out comparison is
 * against the predicted TPOT. Request counts that were not published are 200 (they
 * only weight the rows of a fit). The server's batch limits are the published ones, else vLLM V1's
 * defaults for the GPU class. A published KV-cache size (vLLM's "GPU KV cache size: N tokens")
 * goes to calibrate as `kvCacheTokens` beside them; today's ServerLimits has no such field and
 * ignores it, and the table says whether the fitted engine came back with one.
 */
import { calibrateBench, type ServerLimits } from '../src/calibrate/bench/bench-calibration.js';
import { type BenchRun, parseBenchFile } from '../src/calibrate/bench/bench-file.js';
import { levelOf, PREDICT_SIZE, type Predicted, predictLevel } from '../src/calibrate/bench/bench-level.js';
import type { PublicSweep, PublicSweepRow } from './fixtures/public-sweep.js';
import { PUBLIC_SWEEPS } from './fixtures/public-sweeps.js';

/** Requests per row when the source does not say. */
const COMPLETED = 200;
const V1_DEFAULTS = { 'h100-class': { maxNumSeqs: 1024, maxNumBatchedTokens: 8192 }, other: { maxNumSeqs: 256, maxNumBatchedTokens: 2048 } } as const;
/** The acceptance bars: share of all comparisons, and of each sweep's. */
const BAR_ALL = 0.92;
const BAR_SWEEP = 0.85;

type Figure = 'decode' | 'e2el' | 'outputTokensPerS' | 'ttft';
const FIGURES: readonly Figure[] = ['decode', 'e2el', 'outputTokensPerS', 'ttft'];
const TOLERANCE: Record<Figure, number> = { decode: 0.1, e2el: 0.1, outputTokensPerS: 0.1, ttft: 0.35 };

/** ServerLimits, and the KV cache size a later calibrate may read (today's ignores the field). */
type Limits = ServerLimits & { kvCacheTokens?: number };

function fileOf(s: PublicSweep, r: PublicSweepRow): BenchRun {
  const completed = r.completed ?? COMPLETED;
  const stat = s.stat === 'median' ? 'median' : 'mean';
  const json: Record<string, unknown> = {
    model_id: s.model,
    request_rate: 'inf',
    max_concurrency: r.concurrency,
    completed,
    total_input_tokens: s.promptTokens * completed,
    total_output_tokens: s.outputTokens * completed,
    output_throughput: r.outputTokensPerS,
    median_ttft_ms: r.ttft,
    [`median_${s.decodeMetric}_ms`]: r.decode,
    [`${stat}_ttft_ms`]: r.ttft,
    [`${stat}_${s.decodeMetric}_ms`]: r.decode,
    ...(r.requestsPerS !== undefined ? { request_throughput: r.requestsPerS } : {}),
    ...(r.e2el !== undefined ? { median_e2el_ms: r.e2el, [`${stat}_e2el_ms`]: r.e2el } : {}),
    ...(r.ttftP90 !== undefined ? { p90_ttft_ms: r.ttftP90 } : {}),
    ...(r.ttftP95 !== undefined ? { p95_ttft_ms: r.ttftP95 } : {}),
    ...(r.ttftP99 !== undefined ? { p99_ttft_ms: r.ttftP99 } : {}),
    ...(r.decodeP95 !== undefined ? { [`p95_${s.decodeMetric}_ms`]: r.decodeP95 } : {}),
    ...(r.e2elP95 !== undefined ? { p95_e2el_ms: r.e2elP95 } : {}),
  };
  const p = parseBenchFile(`${s.id}-c${r.concurrency}.json`, JSON.stringify(json));
  if (!p.ok) throw new Error(p.issues.map((i) => `${i.file}: ${i.field}: ${i.reason}`).join('\n'));
  return p.run;
}

/** The splits a user would fit on: lowest, middle and highest row; the three lowest. */
function splitsOf(s: PublicSweep): { name: string; fit: number[] }[] {
  const cs = s.rows.map((r) => r.concurrency).sort((a, b) => a - b);
  const mid = cs[Math.floor((cs.length - 1) / 2)]!;
  return [
    { name: 'ends + middle', fit: [cs[0]!, mid, cs[cs.length - 1]!] },
    { name: 'three lowest', fit: cs.slice(0, 3) },
  ];
}

function predictedOf(s: PublicSweep, p: Predicted, f: Figure): number | undefined {
  if (f === 'decode') return s.decodeMetric === 'itl' ? p.itlP50 : p.tpotP50;
  if (f === 'e2el') return p.e2elP50;
  if (f === 'ttft') return p.ttftP50;
  return p.outputTokensPerS;
}

function limitsOf(s: PublicSweep): Limits {
  const d = V1_DEFAULTS[s.gpuClass];
  const kv = s.kvCacheTokens ?? (process.env.KV_FROM_RUNNING && s.maxRunning ? s.maxRunning * (s.promptTokens + s.outputTokens) : undefined);
  return {
    maxNumSeqs: s.maxNumSeqs ?? d.maxNumSeqs,
    maxNumBatchedTokens: s.maxNumBatchedTokens ?? d.maxNumBatchedTokens,
    ...(kv !== undefined ? { kvCacheTokens: kv } : {}),
  };
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const share = (t: Tally): string => `${t.within}/${t.total} = ${t.total ? ((100 * t.within) / t.total).toFixed(1) : '–'} %`;

interface Tally {
  within: number;
  total: number;
}
const add = (a: Tally, b: Tally): Tally => ({ within: a.within + b.within, total: a.total + b.total });

async function runSplit(s: PublicSweep, runs: BenchRun[], split: { name: string; fit: number[] }): Promise<Tally> {
  const t0 = performance.now();
  const limits = limitsOf(s);
  const { calibration } = await calibrateBench(
    runs.filter((r) => split.fit.includes(r.concurrency)),
    limits,
  );
  const e = calibration.endpoint.engine;
  const fittedKv = (e as Record<string, unknown>).kvCacheTokens;
  console.log(
    `\n  ${split.name}: fit on C = ${split.fit.join(', ')} (${((performance.now() - t0) / 1000).toFixed(1)} s, ${calibration.fit.rounds} rounds, fit miss ${pct(calibration.fit.miss)})`,
  );
  console.log(`    engine ${JSON.stringify(e)}`);
  console.log(
    `    kvCacheTokens: published ${s.kvCacheTokens ?? '–'}, passed ${limits.kvCacheTokens ?? '–'}, fitted ${fittedKv ?? '– (engine has none)'}` +
      (s.maxRunning
        ? `; published running ceiling ${s.maxRunning} (× ${s.promptTokens + s.outputTokens} tokens ≈ ${s.maxRunning * (s.promptTokens + s.outputTokens)})`
        : ''),
  );
  const decodeName = `${s.decodeMetric} ${s.stat === 'median' ? 'p50' : 'mean'}`;
  console.log(`    C    | ${decodeName.padEnd(26)} | ${'e2el p50'.padEnd(26)} | ${'output tok/s'.padEnd(26)} | ttft p50`);
  // Every request reaches vLLM (its queue, not the worker's, holds the surplus): the worker holds the sweep's largest C.
  const workerConcurrency = Math.max(...runs.map((r) => r.concurrency));
  let tally: Tally = { within: 0, total: 0 };
  for (const run of runs.filter((r) => !split.fit.includes(r.concurrency))) {
    const row = s.rows.find((r) => r.concurrency === run.concurrency)!;
    const p = await predictLevel({ engine: e, workerConcurrency }, levelOf(run), PREDICT_SIZE);
    const cells = FIGURES.map((f) => {
      const measured = row[f];
      const predicted = predictedOf(s, p, f);
      if (measured === undefined || predicted === undefined) return '–'.padEnd(26);
      const err = predicted / measured - 1;
      const ok = Math.abs(err) <= TOLERANCE[f];
      tally = add(tally, { within: ok ? 1 : 0, total: 1 });
      return `${predicted.toFixed(1)} vs ${measured} (${pct(err)})${ok ? '' : ' !'}`.padEnd(26);
    });
    console.log(`    ${String(run.concurrency).padEnd(4)} | ${cells.join(' | ')}`);
  }
  console.log(`    within tolerance: ${share(tally)}`);
  return tally;
}

async function main(): Promise<void> {
  const sweeps = PUBLIC_SWEEPS.filter((s) => !process.env.ONLY || s.id === process.env.ONLY);
  const results: { s: PublicSweep; split: string; t: Tally }[] = [];
  for (const s of sweeps) {
    const l = limitsOf(s);
    console.log(
      `\n${s.id}: ${s.title} (${s.tool}, ${s.gpu}, ${s.model}${s.vllm ? `, vLLM ${s.vllm}` : ''}), ${s.promptTokens} in / ${s.outputTokens} out, ` +
        `C = ${s.rows.map((r) => r.concurrency).join(', ')}, ${s.stat}s, ${s.decodeMetric.toUpperCase()}, KV saturating: ${s.kvSaturating}; ` +
        `limits maxNumSeqs ${l.maxNumSeqs}, maxNumBatchedTokens ${l.maxNumBatchedTokens}`,
    );
    for (const n of s.notes) console.log(`  note: ${n}`);
    console.log(`  source: ${s.sources.join(' ; ')}`);
    const runs = s.rows.map((r) => fileOf(s, r));
    for (const split of splitsOf(s)) results.push({ s, split: split.name, t: await runSplit(s, runs, split) });
  }

  console.log('\nshare of held-out comparisons within tolerance (ITL/TPOT, E2E, output tok/s 10 %; TTFT 35 %)');
  const splitNames = [...new Set(results.map((r) => r.split))];
  console.log(`  ${'sweep'.padEnd(34)} | kv full | ${splitNames.map((n) => n.padEnd(20)).join(' | ')}`);
  for (const s of sweeps) {
    const cells = splitNames.map((n) => {
      const r = results.find((x) => x.s === s && x.split === n)!;
      const ok = r.t.total === 0 || r.t.within / r.t.total >= BAR_SWEEP;
      return `${share(r.t)}${ok ? '' : ' !'}`.padEnd(20);
    });
    console.log(`  ${s.id.padEnd(34)} | ${String(s.kvSaturating).padEnd(7)} | ${cells.join(' | ')}`);
  }
  const totals = splitNames.map((n) => results.filter((r) => r.split === n).reduce((a, r) => add(a, r.t), { within: 0, total: 0 }));
  console.log(
    `  ${'all'.padEnd(34)} |         | ${totals.map((t) => `${share(t)}${t.total && t.within / t.total >= BAR_ALL ? '' : ' !'}`.padEnd(20)).join(' | ')}`,
  );
  console.log(`  (! = under the bar: ${BAR_SWEEP * 100} % of a sweep's comparisons, ${BAR_ALL * 100} % of all)`);
}

await main();
