/**
 * What the KV cache model costs: the same LLM run in process with and without
 * `llm.engine.kvCacheTokens`, CPU per completed job. Four batching workers of 64 requests each, a
 * closed loop of 256 streaming users sending 512-token prompts and reading 64–256-token answers,
 * 10 virtual minutes; with the cache each worker holds about 40 requests' worth (24 576 tokens),
 * so requests wait for blocks and some are preempted. Target: with the cache at most 1.3× the CPU
 * per job of the run without. Run each variant in its own process, alternating, and compare the
 * medians:
 *   node dist/bench/llm-kv-cpu.js kv      node dist/bench/llm-kv-cpu.js none
 * With no argument both run in this process, alternating, three rounds each, medians printed.
 */
import { parseScenario } from '../src/load/scenario/loader.js';
import { runScenario } from '../src/load/run-scenario.js';

const KV_TOKENS = 24_576;

function scenario(kv: boolean) {
  const p = parseScenario(
    {
      name: `llm-kv-cpu-${kv ? 'kv' : 'none'}`,
      seed: 1,
      durationMs: 600_000,
      drainMs: 120_000,
      endpoint: {
        id: 'llm',
        workersMin: 4,
        workersMax: 4,
        workerConcurrency: 64,
        limits: { enabled: false },
        llm: {
          engine: {
            decodeMs: 8,
            perSequenceMs: 0.1,
            prefillMsPerToken: 0.02,
            overheadMs: 10,
            maxNumBatchedTokens: 2048,
            ...(kv ? { kvCacheTokens: KV_TOKENS } : {}),
          },
          outputTokens: { dist: 'uniform', minMs: 64, maxMs: 256 },
        },
      },
      traffic: [
        { name: 'chat', arrival: { process: 'closed', users: 256 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 256, promptTokens: 512 } },
      ],
    },
    'llm-kv-cpu',
  );
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p.scenario;
}

async function one(kv: boolean): Promise<{ cpuMsPerJob: number; jobs: number; preemptions: number }> {
  const sc = scenario(kv);
  const c0 = process.cpuUsage();
  const r = await runScenario(sc);
  const c = process.cpuUsage(c0);
  const jobs = r.jobs.finalStatus.COMPLETED ?? 0;
  return { cpuMsPerJob: (c.user + c.system) / 1000 / jobs, jobs, preemptions: r.engine?.preemptions ?? 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const arg = process.argv[2];
  if (arg === 'kv' || arg === 'none') {
    const r = await one(arg === 'kv');
    console.log(`${arg}: ${r.cpuMsPerJob.toFixed(3)} ms CPU per job, ${r.jobs} jobs, ${r.preemptions} preemptions`);
    return;
  }
  const kv: number[] = [];
  const none: number[] = [];
  for (let i = 0; i < 3; i++) {
    const a = await one(false);
    const b = await one(true);
    none.push(a.cpuMsPerJob);
    kv.push(b.cpuMsPerJob);
    console.log(
      `round ${i + 1}: without ${a.cpuMsPerJob.toFixed(3)} ms/job (${a.jobs} jobs), with ${b.cpuMsPerJob.toFixed(3)} ms/job (${b.jobs} jobs, ${b.preemptions} preemptions)`,
    );
  }
  console.log(
    `median CPU per job: without ${median(none).toFixed(3)} ms, with ${median(kv).toFixed(3)} ms: ${(median(kv) / median(none)).toFixed(2)}× (target ≤ 1.3×)`,
  );
}

await main();
