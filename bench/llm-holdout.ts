/**
 * Held-out check of `loadlab calibrate` on vllm bench serve results (not a benchmark of speed,
 * and not in the test suite): a public concurrency sweep (bench/fixtures/vllm-l4-sweep.ts) is
 * written as bench result files, the engine is fitted to some of its rows, and the simulator's
 * prediction for each other row is set against what was measured there. Targets: ITL p50, E2E
 * p50 and output tokens/s within 10 %, TTFT p50 within 35 %.
 *
 *   npm run build && node dist/bench/llm-holdout.js        (BENCH=llm-holdout npm run bench)
 *
 * `MAX_NUM_BATCHED_TOKENS=8192` fits with that prefill budget instead of vLLM's default on an L4 (2048).
 */
import { calibrateBench } from '../src/calibrate/bench/bench-calibration.js';
import { type BenchRun, parseBenchFile } from '../src/calibrate/bench/bench-file.js';
import { levelOf, PREDICT_SIZE, predictLevel } from '../src/calibrate/bench/bench-level.js';
import { L4_SWEEP, type SweepRow } from './fixtures/vllm-l4-sweep.js';

/** Requests per row: the page does not say; only the weighting of rows in the fit uses it. */
const COMPLETED = 200;
const TARGETS = { itlP50: 0.1, ttftP50: 0.35, e2elP50: 0.1, outputTokensPerS: 0.1 } as const;

function fileOf(r: SweepRow): BenchRun {
  const s = L4_SWEEP;
  const json = {
    model_id: s.model,
    request_rate: 'inf',
    max_concurrency: r.concurrency,
    completed: COMPLETED,
    total_input_tokens: s.promptTokens * COMPLETED,
    total_output_tokens: s.outputTokens * COMPLETED,
    request_throughput: r.requestsPerS,
    output_throughput: r.outputTokensPerS,
    median_ttft_ms: r.ttftP50,
    p95_ttft_ms: r.ttftP95,
    median_itl_ms: r.itlP50,
    p95_itl_ms: r.itlP95,
    median_e2el_ms: r.e2elP50,
    p95_e2el_ms: r.e2elP95,
  };
  const p = parseBenchFile(`l4-c${r.concurrency}.json`, JSON.stringify(json));
  if (!p.ok) throw new Error(p.issues.map((i) => `${i.file}: ${i.field}: ${i.reason}`).join('\n'));
  return p.run;
}

const SPLITS: { name: string; fit: number[] }[] = [
  { name: 'all rows', fit: L4_SWEEP.rows.map((r) => r.concurrency) },
  { name: 'interpolate', fit: [1, 8, 32] },
  { name: 'extrapolate up', fit: [1, 2, 4, 8] },
  ...L4_SWEEP.rows.map((r) => ({ name: `leave out ${r.concurrency}`, fit: L4_SWEEP.rows.map((x) => x.concurrency).filter((c) => c !== r.concurrency) })),
];

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const budget = process.env.MAX_NUM_BATCHED_TOKENS ? Number(process.env.MAX_NUM_BATCHED_TOKENS) : undefined;
  const runs = L4_SWEEP.rows.map(fileOf);
  const worst: Record<string, number> = {};
  console.log(`vLLM L4 sweep (${L4_SWEEP.model}), maxNumBatchedTokens ${budget ?? 'default'}`);
  for (const split of SPLITS) {
    const t0 = performance.now();
    const fitted = runs.filter((r) => split.fit.includes(r.concurrency));
    const { calibration } = await calibrateBench(fitted, budget ? { maxNumBatchedTokens: budget } : {});
    const e = calibration.endpoint.engine;
    console.log(
      `\n${split.name}: fit on C = ${split.fit.join(', ')} (${((performance.now() - t0) / 1000).toFixed(1)} s): decodeMs ${e.decodeMs}, perSequenceMs ${e.perSequenceMs}, prefillMsPerToken ${e.prefillMsPerToken}, overheadMs ${e.overheadMs}, ${calibration.fit.rounds} rounds, fit miss ${pct(calibration.fit.miss)}`,
    );
    for (const l of calibration.levels)
      console.log(
        `  fitted C = ${l.concurrency}: ${(Object.keys(TARGETS) as (keyof typeof TARGETS)[]).map((k) => `${k} ${pct(l.figures[k].error ?? NaN)}`).join(', ')}`,
      );
    console.log(`  C   | ${(Object.keys(TARGETS) as (keyof typeof TARGETS)[]).join(' | ')}`);
    for (const run of runs.filter((r) => !split.fit.includes(r.concurrency))) {
      const l = levelOf(run);
      const p = await predictLevel({ engine: e, workerConcurrency: 32 }, l, PREDICT_SIZE);
      const cells = (Object.keys(TARGETS) as (keyof typeof TARGETS)[]).map((k) => {
        const err = p[k]! / l.measured[k]! - 1;
        worst[k] = Math.max(worst[k] ?? 0, Math.abs(err));
        return `${p[k]!.toFixed(1)} vs ${l.measured[k]} (${pct(err)})${Math.abs(err) <= TARGETS[k] ? '' : ' !'}`;
      });
      console.log(`  ${String(run.concurrency).padEnd(3)} | ${cells.join(' | ')}`);
    }
  }
  console.log('\nlargest held-out |error| against its target:');
  for (const k of Object.keys(TARGETS) as (keyof typeof TARGETS)[])
    console.log(`  ${k}: ${((worst[k] ?? 0) * 100).toFixed(1)} % (target ${TARGETS[k] * 100} %) ${(worst[k] ?? 0) <= TARGETS[k] ? 'met' : 'NOT met'}`);
}

await main();
