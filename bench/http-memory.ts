/**
 * Memory of `loadlab serve` with 100 000 retained jobs and 400 held /runsync requests (target:
 * RSS under 300 MB). Manual clock, limits off: 100 000 /run jobs of 0 ms complete in one
 * advance and stay retained (30 min); then 400 /runsync requests wait on a 10-minute job each.
 * Usage: node dist/bench/http-memory.js [jobs=100000] [held=400]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Pool } from 'undici';
import { METRIC } from '../src/contract/metric-names.js';
import { spawnFirstLine, stop } from './http-spawn.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

type Autocannon = (o: Record<string, unknown>) => Promise<{ requests: { total: number }; non2xx: number; errors: number }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const KEY = 'bench-key';
/** The accepted-/runsync counter on /metrics: every held request is an accepted job. */
const HELD_RE = new RegExp(`${METRIC.jobsAccepted}\\{endpoint="ep",kind="runsync"\\} (\\d+)`);

/** VmRSS and VmHWM (peak) of a process, in MB. */
function rssMb(pid: number): { rss: number; peak: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function main(): Promise<void> {
  const jobs = Number(process.argv[2] ?? 100_000);
  const held = Number(process.argv[3] ?? 400);
  const serve = await spawnFirstLine(['bin/loadlab.js', 'serve', '--port', '0', '--clock', 'manual', '--limits', 'off', '--api-key', KEY]);
  const base = /(http:\S+\/v2)/.exec(serve.line)![1]!;
  const origin = base.slice(0, -3);
  const headers = { authorization: KEY, 'content-type': 'application/json' };
  const pid = serve.child.pid!;
  try {
    const idle = rssMb(pid);
    const r = await autocannon({
      url: `${base}/ep/run`,
      method: 'POST',
      connections: 32,
      amount: jobs,
      headers,
      body: JSON.stringify({ input: { prompt: 'hello world', sim: { durationMs: 0 } } }),
    });
    const adv = await fetch(`${origin}/_sim/advance`, { method: 'POST', headers, body: '{"ms":1}' });
    await adv.text();
    const health = (await (await fetch(`${base}/ep/health`, { headers })).json()) as { jobs: { completed: number } };
    const afterJobs = rssMb(pid);

    const pool = new Pool(origin, { connections: held });
    const pending = Array.from({ length: held }, () =>
      pool
        .request({
          path: '/v2/ep/runsync?wait=300000',
          method: 'POST',
          headers,
          body: '{"input":{"sim":{"durationMs":600000}}}',
          headersTimeout: 0,
          bodyTimeout: 0,
        })
        .then((x) => x.body.dump())
        .catch(() => undefined),
    );
    // Wait until every runsync is held (each is an accepted job).
    let heldNow = 0;
    for (let i = 0; i < 200; i++) {
      const m = await (await fetch(`${origin}/metrics`)).text();
      const n = (heldNow = Number(HELD_RE.exec(m)?.[1] ?? 0));
      if (n >= held) break;
      await new Promise((x) => setTimeout(x, 50));
    }
    const withHeld = rssMb(pid);
    console.log(
      `Memory of serve (manual clock, limits off): ${r.requests.total} /run sent (${r.non2xx + r.errors} non-2xx/errors), ${health.jobs.completed} completed and retained, ${heldNow} of ${held} /runsync held.`,
    );
    console.log('| state | RSS MB | peak RSS MB |');
    console.log('|---|---|---|');
    console.log(`| idle after start | ${idle.rss.toFixed(0)} | ${idle.peak.toFixed(0)} |`);
    console.log(`| ${health.jobs.completed} jobs retained | ${afterJobs.rss.toFixed(0)} | ${afterJobs.peak.toFixed(0)} |`);
    console.log(`| + ${held} held /runsync | ${withHeld.rss.toFixed(0)} | ${withHeld.peak.toFixed(0)} |`);
    recordFigure(
      'http-memory',
      `serve's peak RSS: ${formatNumber(health.jobs.completed)} jobs retained + ${heldNow} held /runsync`,
      `${withHeld.peak.toFixed(0)} MB (idle ${idle.rss.toFixed(0)} MB)`,
      '< 300 MB',
    );
    console.log(`Target: under 300 MB → ${withHeld.peak < 300 ? 'met' : 'NOT met'} (peak ${withHeld.peak.toFixed(0)} MB).`);
    await stop(serve.child);
    await Promise.all(pending);
    await pool.close();
  } finally {
    await stop(serve.child);
  }
}

void main().catch((e: Error) => {
  console.error(e.stack);
  process.exitCode = 1;
});
