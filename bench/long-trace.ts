/**
 * A token trace of 10 million rows (`replay` with `format: csv`) replayed by `loadlab run` in a
 * child process whose old generation is capped at 64 MiB: the validating pass reads every row
 * as a stream, the run pulls rows as virtual time advances (20 s of traffic at speed 0.1: 2000
 * requests). Prints the trace's size, the wall time of the run (mostly the validating pass) and
 * the child's peak RSS. The suite's test/cli/replay-long-trace.test.ts does the same with 1 M
 * rows, to stay short.
 * Usage: node dist/bench/long-trace.js [rows=10000000]   (opt-in: BENCH=long-trace npm run bench)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PEAK_RSS = 'data:text/javascript,process.on("exit",()=>process.stderr.write(`peak-rss-kib ${process.resourceUsage().maxRSS}\\n`))';

/** Row i: at i ms, a prompt of 100 + i mod 900 tokens, an answer of 1 + i mod 50. */
export function writeLongTrace(file: string, rows: number): void {
  const fd = openSync(file, 'w');
  writeSync(fd, 'atMs,promptTokens,outputTokens\n');
  for (let i = 0; i < rows; ) {
    const lines: string[] = [];
    for (const end = Math.min(rows, i + 200_000); i < end; i++) lines.push(`${i},${100 + (i % 900)},${1 + (i % 50)}\n`);
    writeSync(fd, lines.join(''));
  }
  closeSync(fd);
}

/** What one replay of the long trace gave: the child's exit, its report (when it ran), wall seconds and peak RSS (MiB). */
export interface LongTraceRun {
  status: number | null;
  stderr: string;
  report: { arrivals: { intended: number }; flows: { chat: { stream: { promptTokens: number; tokens: number } } } } | undefined;
  wallSeconds: number;
  peakRssMiB: number;
}

/**
 * Writes `rows` rows of the trace into `dir` and replays its first 20 s (speed 0.1: 2000 rows) with
 * `loadlab run` in a child whose old generation is capped at 64 MiB.
 */
export function replayLongTrace(dir: string, rows: number, timeoutMs?: number): LongTraceRun & { traceBytes: number; writeSeconds: number } {
  const trace = join(dir, 'long.csv');
  let t0 = performance.now();
  writeLongTrace(trace, rows);
  const writeSeconds = (performance.now() - t0) / 1000;
  const scenario = join(dir, 'long.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      name: 'long-trace',
      durationMs: 20_000,
      drainMs: 10_000,
      endpoint: { id: 'llm', workersMin: 4, workersMax: 4, workerConcurrency: 64, llm: { engine: { decodeMs: 1 }, outputTokens: 4 } },
      traffic: [
        { name: 'chat', arrival: { process: 'replay', file: 'long.csv', format: 'csv', speed: 0.1 }, client: { behaviour: 'openai-chat', stream: true } },
      ],
    }),
  );
  t0 = performance.now();
  const out = join(dir, 'out');
  const r = spawnSync(process.execPath, ['--max-old-space-size=64', `--import=${PEAK_RSS}`, 'bin/loadlab.js', 'run', scenario, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
  });
  return {
    status: r.status,
    stderr: r.stderr,
    report: r.status === 0 ? JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) : undefined,
    wallSeconds: (performance.now() - t0) / 1000,
    peakRssMiB: Number(/peak-rss-kib (\d+)/.exec(r.stderr)?.[1]) / 1024,
    traceBytes: statSync(trace).size,
    writeSeconds,
  };
}

function main(): void {
  const rows = Number(process.argv[2] ?? 10_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-long-trace-'));
  try {
    const r = replayLongTrace(dir, rows);
    console.log(`trace: ${rows} rows, ${(r.traceBytes / 1e6).toFixed(0)} MB, written in ${r.writeSeconds.toFixed(1)} s`);
    if (r.report === undefined) throw new Error(`loadlab run exited ${r.status}: ${r.stderr}`);
    console.log(
      `run: ${r.report.arrivals.intended} requests replayed, ${r.wallSeconds.toFixed(1)} s wall (the validating pass over every row included), peak RSS ${r.peakRssMiB.toFixed(0)} MiB (old generation capped at 64 MiB)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run as a script (not when a test imports replayLongTrace).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
