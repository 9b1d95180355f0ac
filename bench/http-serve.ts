/**
 * HTTP throughput of `loadlab serve` (limits off) next to the floor: a bare node:http server that
 * parses the same JSON and answers a body of the same size. /run (POST) and /status (GET), with
 * autocannon, each server in its own process, one after the other. Target: serve ≥ 0.8× floor.
 * Usage: node dist/bench/http-serve.js [seconds=5] [connections=32] [rounds=3]
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnFirstLine, stop } from './http-spawn.js';

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

async function load(url: string, method: 'GET' | 'POST', body: string | undefined, seconds: number, connections: number) {
  const r = await autocannon({
    url, method, connections, duration: seconds,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body } : {}),
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, bad: r.non2xx + r.errors + r.timeouts };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const connections = Number(process.argv[3] ?? 32);
  const rounds = Number(process.argv[4] ?? 3);
  const runBody = JSON.stringify({ input: { prompt: 'hello world', n: 1 } });

  const serve = await spawnFirstLine(['bin/loadlab.js', 'serve', '--port', '0', '--limits', 'off', '--api-key', KEY]);
  const base = /(http:\S+\/v2)/.exec(serve.line)![1]!;
  // One job to poll, done by the time /status is measured; sizes of the answers the floor mimics.
  const first = await fetch(`${base}/ep/run`, { method: 'POST', body: runBody, headers: { authorization: KEY } });
  const runText = await first.text();
  const id = (JSON.parse(runText) as { id: string }).id;
  await new Promise((r) => setTimeout(r, 1200));
  const statusText = await (await fetch(`${base}/ep/status/${id}`, { headers: { authorization: KEY } })).text();
  const floor = await spawnFirstLine([join(here, 'http-floor-server.js'), '--serve', String(Buffer.byteLength(runText)), String(Buffer.byteLength(statusText))]);
  const floorBase = `http://127.0.0.1:${floor.line.trim()}/v2`;

  const rows: string[] = [];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  try {
    for (const [name, method, path, body] of [
      ['/run', 'POST', '/ep/run', runBody],
      ['/status', 'GET', `/ep/status/${id}`, undefined],
    ] as const) {
      // A warm-up each (JIT, connection pools), not counted; then rounds alternate which server
      // goes first, so drift in the machine's load hits both alike.
      await load(floorBase + path, method, body, 2, connections);
      await load(base + path, method, body, 2, connections);
      const f: Awaited<ReturnType<typeof load>>[] = [];
      const s: Awaited<ReturnType<typeof load>>[] = [];
      for (let round = 0; round < rounds; round++) {
        if (round % 2 === 0) {
          f.push(await load(floorBase + path, method, body, seconds, connections));
          s.push(await load(base + path, method, body, seconds, connections));
        } else {
          s.push(await load(base + path, method, body, seconds, connections));
          f.push(await load(floorBase + path, method, body, seconds, connections));
        }
      }
      const fr = median(f.map((x) => x.rps));
      const sr = median(s.map((x) => x.rps));
      const bad = [...f, ...s].reduce((a, x) => a + x.bad, 0);
      rows.push(`| ${name} | ${fr.toFixed(0)} | ${median(f.map((x) => x.p99))} | ${sr.toFixed(0)} | ${median(s.map((x) => x.p99))} | ${(sr / fr).toFixed(2)}× | ${bad} |`);
    }
  } finally {
    await stop(serve.child);
    await stop(floor.child);
  }
  console.log(`HTTP throughput: median of ${rounds} alternating rounds of ${seconds} s, ${connections} connections; autocannon in this process, each server in its own (serve: limits off, real clock ×1).`);
  console.log(`Answer sizes: /run ${Buffer.byteLength(runText)} B, /status ${Buffer.byteLength(statusText)} B (the floor answers the same sizes).`);
  console.log('| route | floor req/s | floor p99 ms | serve req/s | serve p99 ms | serve/floor | non-2xx+errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

void main().catch((e: Error) => {
  console.error(e.stack);
  process.exitCode = 1;
});
