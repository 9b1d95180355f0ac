/**
 * loadlab's HTTP generator beside its peers (issue 21), judged by what arrived: a timestamping
 * keep-alive server in its own process (arrival-server.ts), then each tool (peer-tools.ts) at
 * each fixed rate for `--seconds`, tools alternated (the order rotates every round), `--rounds`
 * rounds; the table gives the median over rounds of, per rate and tool:
 *   - served / intended: arrivals at the server / (rate × seconds);
 *   - lateness of the k-th arrival against the even schedule from the first arrival (p50, p99,
 *     max; negative: early);
 *   - CV of the arrivals per 100 ms (0: perfectly even);
 *   - the tool's CPU (user + sys of its process tree, start-up and report included) per arrival,
 *     and the same net of the tool's fixed cost: the CPU of a 1 s run at 10/s (start-up, warm-up,
 *     report), measured once per round.
 * Not part of `npm run bench`'s default set (it takes minutes and needs the peers installed):
 *   npx tsc -p tsconfig.build.json && node dist/bench/generator-vs-peers.js \
 *     [--seconds 10] [--rounds 3] [--rates 1000,4000,10000] [--tools loadlab,autocannon,loadtest,hey]
 */
import { loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startArrivalServer } from './arrival-server.js';
import { arrivalStats, type ArrivalStats } from './arrival-stats.js';
import { TOOLS, type Tool } from './peer-tools.js';
import { runMeasured } from './tree-cpu.js';

interface Options {
  seconds: number;
  rounds: number;
  rates: number[];
  tools: Tool[];
}

function usage(msg: string): never {
  console.error(`generator-vs-peers: ${msg}`);
  process.exit(2);
}

function positive(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) usage(`--${flag}: a positive number expected, got "${v}"`);
  return n;
}

function options(argv: string[]): Options {
  let values: { seconds?: string; rounds?: string; rates?: string; tools?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { seconds: { type: 'string' }, rounds: { type: 'string' }, rates: { type: 'string' }, tools: { type: 'string' } },
    }));
  } catch (e) {
    usage((e as Error).message);
  }
  const names = values.tools?.split(',') ?? TOOLS.map((t) => t.name);
  const tools = names.map((n) => TOOLS.find((t) => t.name === n) ?? usage(`--tools: unknown tool "${n}" (known: ${TOOLS.map((t) => t.name).join(', ')})`));
  return {
    seconds: positive('seconds', values.seconds ?? '10'),
    rounds: Math.round(positive('rounds', values.rounds ?? '3')),
    rates: (values.rates ?? '1000,4000,10000').split(',').map((r) => Math.round(positive('rates', r))),
    tools,
  };
}

interface Sample extends ArrivalStats {
  cpuMs: number;
  arrivals: number;
}

/** The fixed-cost run: what a tool spends whatever the rate (start-up, warm-up, report). */
const FIXED_RATE = 10;
const FIXED_SECONDS = 1;

const median = (xs: number[]): number => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (x: number): string => (Number.isNaN(x) ? '—' : x.toFixed(x >= 100 || x <= -100 ? 0 : 1));
const perRequestUs = (cpuMs: number, arrivals: number): number => (arrivals ? (cpuMs * 1000) / arrivals : NaN);
const group = (n: number): string =>
  Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const usable = o.tools.filter((t) => {
    const why = t.missing();
    if (why) console.log(`skipped ${t.name}: ${why}`);
    return !why;
  });
  console.log(
    `${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the start; ${o.seconds} s per tool and rate, ${o.rounds} round(s)`,
  );
  const server = await startArrivalServer();
  const samples = new Map<string, Sample[]>();
  const fixedMs = new Map<string, number[]>();
  let loadMax = loadavg()[0]!;
  try {
    for (let round = 0; round < o.rounds; round++) {
      for (const tool of usable) {
        const [cmd, args] = tool.command(server.url, FIXED_RATE, FIXED_SECONDS);
        const run = await runMeasured(cmd, args);
        fixedMs.set(tool.name, [...(fixedMs.get(tool.name) ?? []), run.cpuMs]);
        console.log(`round ${round + 1} fixed cost ${tool.name.padEnd(10)} ${(run.cpuMs / 1000).toFixed(2)} s CPU (${FIXED_SECONDS} s at ${FIXED_RATE}/s)`);
      }
      for (const rate of o.rates) {
        const order = usable.map((_, i) => usable[(i + round) % usable.length]!);
        for (const tool of order) {
          await server.reset();
          const [cmd, args] = tool.command(server.url, rate, o.seconds);
          const run = await runMeasured(cmd, args);
          const times = await server.dump();
          if (run.exitCode !== 0) console.log(`  ${tool.name} exited ${run.exitCode}: ${run.stderr.trim().slice(0, 300)}`);
          const s: Sample = { ...arrivalStats(times, rate, o.seconds), cpuMs: run.cpuMs, arrivals: times.length };
          const key = `${rate}\t${tool.name}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
          loadMax = Math.max(loadMax, loadavg()[0]!);
          console.log(
            `round ${round + 1} ${rate}/s ${tool.name.padEnd(10)} served ${s.servedRatio.toFixed(3)}  late p50 ${ms(s.lateP50Ms)} p99 ${ms(s.lateP99Ms)} max ${ms(s.lateMaxMs)} ms  CV ${s.cv100ms.toFixed(3)}  p99 tail in 1st s ${(s.tailInFirstSecond * 100).toFixed(0)} %  CPU ${perRequestUs(s.cpuMs, s.arrivals).toFixed(0)} µs/req (${(run.cpuMs / 1000).toFixed(2)} s)`,
          );
          await sleep(500); // the tool's sockets close before the next one starts
        }
      }
    }
  } finally {
    await server.close();
  }
  console.log(
    `\nFixed cost (median CPU of a ${FIXED_SECONDS} s run at ${FIXED_RATE}/s): ${usable.map((t) => `${t.name} ${(median(fixedMs.get(t.name) ?? []) / 1000).toFixed(2)} s`).join(', ')}.`,
  );
  console.log(`Medians of ${o.rounds} round(s), ${o.seconds} s each; load average ${loadavg()[0]!.toFixed(2)} at the end (up to ${loadMax.toFixed(2)}).\n`);
  console.log('| rate | tool | served / intended | lateness p50 / p99 / max (ms) | CV per 100 ms | CPU per request | net of fixed cost |');
  console.log('|---|---|---|---|---|---|---|');
  for (const rate of o.rates) {
    usable.forEach((tool, i) => {
      const ss = samples.get(`${rate}\t${tool.name}`) ?? [];
      const m = (f: (s: Sample) => number): number => median(ss.map(f));
      const fixed = median(fixedMs.get(tool.name) ?? []);
      const cpu = m((s) => perRequestUs(s.cpuMs, s.arrivals));
      const net = m((s) => perRequestUs(s.cpuMs - fixed, s.arrivals));
      console.log(
        `| ${i === 0 ? `${group(rate)}/s` : ''} | ${tool.name} | ${m((s) => s.servedRatio).toFixed(3)} | ${ms(m((s) => s.lateP50Ms))} / ${ms(m((s) => s.lateP99Ms))} / ${ms(m((s) => s.lateMaxMs))} | ${m((s) => s.cv100ms).toFixed(2)} | ${group(cpu)} µs | ${group(net)} µs |`,
      );
    });
  }
}

await main();
