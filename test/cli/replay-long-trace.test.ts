/**
 * A long token trace replays in bounded memory: `loadlab run` (a child process, its old
 * generation capped at 64 MiB) validates every row in one streaming pass and then pulls rows from
 * the file as virtual time advances. The test has 1 M rows (a few seconds); bench/long-trace.ts
 * the same with 10 M (about 10 s of writing and 10 s of validating on a small machine). Held in
 * memory as objects, 1 M rows would not fit in the 64 MiB. The run itself is 20 s of virtual
 * traffic at speed 0.1 (2000 rows).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { writeLongTrace } from '../../bench/long-trace.js';

const ROWS = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'loadlab-long-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** Prints the child's peak RSS (KiB) on stderr at exit. */
const PEAK_RSS = 'data:text/javascript,process.on("exit",()=>process.stderr.write(`peak-rss-kib ${process.resourceUsage().maxRSS}\\n`))';

test('1 M rows: the run reads the rows it needs, in a 64 MiB heap', () => {
  const trace = join(dir, 'long.csv');
  writeLongTrace(trace, ROWS);
  expect(statSync(trace).size).toBeGreaterThan(10e6);
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
  const out = join(dir, 'out');
  const r = spawnSync('node', ['--max-old-space-size=64', `--import=${PEAK_RSS}`, 'bin/loadlab.js', 'run', scenario, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  expect(report.arrivals.intended).toBe(2000);
  // Rows 0 … 1999: prompts 100 + i mod 900, answers 1 + i mod 50.
  let prompt = 0;
  let answer = 0;
  for (let i = 0; i < 2000; i++) (prompt += 100 + (i % 900)), (answer += 1 + (i % 50));
  expect([report.flows.chat.stream.promptTokens, report.flows.chat.stream.tokens]).toEqual([prompt, answer]);
  const rss = Number(/peak-rss-kib (\d+)/.exec(r.stderr)?.[1]) / 1024;
  expect(rss).toBeLessThan(400);
}, 180_000);
