/**
 * A long token trace replays in bounded memory: `loadlab run` (a child process, its old
 * generation capped at 64 MiB) validates every row in one streaming pass and then pulls rows from
 * the file as virtual time advances. The test has 1 M rows (a few seconds); bench/long-trace.ts
 * the same with 10 M (about 10 s of writing and 10 s of validating on a small machine). Held in
 * memory as objects, 1 M rows would not fit in the 64 MiB. The run itself is 20 s of virtual
 * traffic at speed 0.1 (2000 rows).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { replayLongTrace } from '../../bench/long-trace.js';

const ROWS = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'loadlab-long-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('1 M rows: the run reads the rows it needs, in a 64 MiB heap', () => {
  const r = replayLongTrace(dir, ROWS, 120_000);
  expect(r.traceBytes).toBeGreaterThan(10e6);
  expect(r.status, r.stderr).toBe(0);
  const report = r.report!;
  expect(report.arrivals.intended).toBe(2000);
  // Rows 0 … 1999: prompts 100 + i mod 900, answers 1 + i mod 50.
  let prompt = 0;
  let answer = 0;
  for (let i = 0; i < 2000; i++) (prompt += 100 + (i % 900)), (answer += 1 + (i % 50));
  expect([report.flows.chat.stream.promptTokens, report.flows.chat.stream.tokens]).toEqual([prompt, answer]);
  expect(r.peakRssMiB).toBeLessThan(400);
}, 180_000);
