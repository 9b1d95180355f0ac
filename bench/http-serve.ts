/**
 * HTTP throughput of `loadlab serve` (limits off) next to the floor: a bare node:http server that
 * parses the same JSON and answers a body of the same size. /run (POST) and /status (GET), with
 * autocannon, each server in its own process, one after the other. Target: serve ≥ 0.8× floor.
 * Each route gets a fresh pair of servers (serve's default endpoint keeps every job /run
 * accepts queued; /status is not measured in a process holding millions of them).
 * Rounds alternate which server goes first; serve/floor is the median of the ratios of the two
 * rounds of a pair (run back to back, so a change in the machine's load hits both alike). On
 * Linux it also reports each server's main-thread CPU time per request (/proc schedstat): that
 * figure barely depends on what else the machine runs, req/s does. It also measures that CPU
 * at a fixed rate both servers keep up with (half the floor's req/s): flat out, a closed loop on
 * a 2-CPU machine amplifies any difference between the servers (docs/performance.md, "http-serve"), at a
 * fixed rate each pays only for its own work.
 * Usage: node dist/bench/http-serve.js [seconds=5] [connections=32] [rounds=5]
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnFirstLine, stop } from './http-spawn.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (o: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const here = dirname(fileURLToPath(import.meta.url));
const KEY = 'bench-key';
const HAS_PROC = existsSync('/proc/self/task');

/** Main-thread CPU time of a process so far, µs (run time from schedstat); NaN off Linux. */
function mainThreadCpuUs(pid: number): number {
  if (!HAS_PROC) return NaN;
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
}

/** One autocannon round; `rate`: a fixed total rate (autocannon's `overallRate`) instead of as fast as the server answers. */
async function load(pid: number, url: string, method: 'GET' | 'POST', body: string | undefined, seconds: number, connections: number, rate?: number) {
  const cpu0 = mainThreadCpuUs(pid);
  const r = await autocannon({
    url,
    method,
    connections,
    duration: seconds,
    ...(rate !== undefined ? { overallRate: rate } : {}),
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body } : {}),
  });
  const cpuUs = (mainThreadCpuUs(pid) - cpu0) / r.requests.total;
  return { rps: r.requests.average, p99: r.latency.p99, cpuUs, bad: r.non2xx + r.errors + r.timeouts };
}
type Round = Awaited<ReturnType<typeof load>>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * A fresh `loadlab serve` (limits off) and floor server: one job submitted and done (its id for
 * /status), and the floor answering the sizes serve answers.
 */
async function startPair(runBody: string) {
  const serve = await spawnFirstLine(['bin/loadlab.js', 'serve', '--port', '0', '--limits', 'off', '--api-key', KEY]);
  const base = /(http:\S+\/v2)/.exec(serve.line)![1]!;
  const first = await fetch(`${base}/ep/run`, { method: 'POST', body: runBody, headers: { authorization: KEY } });
  const runText = await first.text();
  const id = (JSON.parse(runText) as { id: string }).id;
  await new Promise((r) => setTimeout(r, 1200));
  const statusText = await (await fetch(`${base}/ep/status/${id}`, { headers: { authorization: KEY } })).text();
  const floor = await spawnFirstLine([
    join(here, 'http-floor-server.js'),
    '--serve',
    String(Buffer.byteLength(runText)),
    String(Buffer.byteLength(statusText)),
  ]);
  return {
    serve: serve.child,
    floor: floor.child,
    servePid: serve.child.pid!,
    floorPid: floor.child.pid!,
    base,
    floorBase: `http://127.0.0.1:${floor.line.trim()}/v2`,
    id,
    runText,
    statusText,
  };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const connections = Number(process.argv[3] ?? 32);
  const rounds = Number(process.argv[4] ?? 5);
  const runBody = JSON.stringify({ input: { prompt: 'hello world', n: 1 } });

  const rows: string[] = [];
  const cpuRows: string[] = [];
  let sizes = '';
  const routes = [
    ['/run', 'POST', () => '/ep/run', runBody],
    ['/status', 'GET', (id: string) => `/ep/status/${id}`, undefined],
  ] as const;
  for (const [name, method, pathOf, body] of routes) {
    // Fresh servers for each route: serve's default endpoint (3 workers, limits off) keeps every
    // job /run accepts queued, and /status measured in a process holding millions of them
    // measures its garbage collector (25 rounds of /run first: /status fell from 0.82x to 0.64x
    // over the rounds).
    const pair = await startPair(runBody);
    sizes ||= `Answer sizes: /run ${Buffer.byteLength(pair.runText)} B, /status ${Buffer.byteLength(pair.statusText)} B (the floor answers the same sizes).`;
    try {
      const path = pathOf(pair.id);
      const { servePid, floorPid, base, floorBase } = pair;
      // A warm-up each (JIT, connection pools), not counted; then rounds alternate which server
      // goes first, so drift in the machine's load hits both alike.
      const runFloor = () => load(floorPid, floorBase + path, method, body, seconds, connections);
      const runServe = () => load(servePid, base + path, method, body, seconds, connections);
      await load(floorPid, floorBase + path, method, body, 2, connections);
      await load(servePid, base + path, method, body, 2, connections);
      const f: Round[] = [];
      const s: Round[] = [];
      for (let round = 0; round < rounds; round++) {
        if (round % 2 === 0) {
          f.push(await runFloor());
          s.push(await runServe());
        } else {
          s.push(await runServe());
          f.push(await runFloor());
        }
      }
      const ratio = median(s.map((x, i) => x.rps / f[i]!.rps));
      const bad = [...f, ...s].reduce((a, x) => a + x.bad, 0);
      const each = (xs: Round[]) => xs.map((x) => x.rps.toFixed(0)).join(' ');
      recordFigure(
        'http-serve',
        `${name}: serve / floor req/s (serve's req/s)`,
        `${ratio.toFixed(2)}× (${formatNumber(median(s.map((x) => x.rps)))})`,
        '≥ 0.8×',
      );
      rows.push(
        `| ${name} | ${median(f.map((x) => x.rps)).toFixed(0)} | ${median(f.map((x) => x.p99))} | ${median(s.map((x) => x.rps)).toFixed(0)} | ${median(s.map((x) => x.p99))} | ${ratio.toFixed(2)}× | ${bad} | ${each(f)} / ${each(s)} |`,
      );
      if (HAS_PROC) {
        const fc = median(f.map((x) => x.cpuUs));
        const sc = median(s.map((x) => x.cpuUs));
        // The same work at a fixed rate both servers keep up with (half the floor's maximum): no
        // closed-loop dynamics, so CPU per request is each server's own cost at that rate.
        const rate = Math.round(median(f.map((x) => x.rps)) / 2);
        const ff: Round[] = [];
        const sf: Round[] = [];
        const fixedFloor = async () => ff.push(await load(floorPid, floorBase + path, method, body, seconds, connections, rate));
        const fixedServe = async () => sf.push(await load(servePid, base + path, method, body, seconds, connections, rate));
        for (let round = 0; round < 3; round++) {
          // Alternating which goes first, as the rounds above do.
          if (round % 2 === 0) await fixedFloor().then(fixedServe);
          else await fixedServe().then(fixedFloor);
        }
        const ffc = median(ff.map((x) => x.cpuUs));
        const sfc = median(sf.map((x) => x.cpuUs));
        recordFigure(
          'http-serve',
          `${name}: main-thread CPU per request, serve / floor, at a fixed ${formatNumber(rate)} req/s`,
          `${(sfc / ffc).toFixed(2)}× (${ffc.toFixed(1)} → ${sfc.toFixed(1)} µs)`,
        );
        cpuRows.push(
          `| ${name} | ${fc.toFixed(1)} | ${sc.toFixed(1)} | ${(sc / fc).toFixed(2)}× | ${rate} | ${ffc.toFixed(1)} | ${sfc.toFixed(1)} | ${(sfc / ffc).toFixed(2)}× |`,
        );
      }
    } finally {
      await stop(pair.serve);
      await stop(pair.floor);
    }
  }
  console.log(
    `HTTP throughput: ${rounds} alternating rounds of ${seconds} s, ${connections} connections; autocannon in this process, each server in its own (serve: limits off, real clock ×1).`,
  );
  console.log(sizes);
  console.log('req/s and p99: medians over the rounds; serve/floor: median of the per-pair ratios.');
  console.log('| route | floor req/s | floor p99 ms | serve req/s | serve p99 ms | serve/floor | non-2xx+errors | rounds: floor / serve req/s |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  if (cpuRows.length > 0) {
    console.log(
      "\nMain-thread CPU per request (µs, median over the rounds; /proc/PID/task/PID/schedstat), flat out and at a fixed rate (half the floor's req/s, 3 rounds each):",
    );
    console.log('| route | floor | serve | serve/floor | fixed rate, req/s | floor | serve | serve/floor |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of cpuRows) console.log(r);
  }
}

void main().catch((e: Error) => {
  console.error(e.stack);
  process.exitCode = 1;
});
