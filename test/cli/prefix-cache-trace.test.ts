/**
 * Prefix caching on a real trace (issue: "LLM traffic as it really comes"). Two minutes of
 * Mooncake's conversation trace (FAST'25; scenarios/traces/) replayed in process: each request's
 * prompt is built from its `hash_ids` (512-token blocks; equal id = the same tokens), so a block the
 * trace reuses is text the engine has seen. On one worker whose cache holds everything (no
 * kvCacheTokens), the prefix cache hit rate is the share of prompt tokens in blocks the trace
 * reuses; on eight workers behind the queue each worker has its own cache and the rate is clearly
 * lower (a conversation's next turn rarely lands on the worker that served the last).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { stringify } from 'yaml';
import type { RunResult } from '../../src/report/run-result.js';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';

const TRACE = resolve('scenarios/traces/mooncake_fast25_conversation.jsonl');
const WINDOW_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'loadlab-prefix-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The trace's own figure: prompt tokens in blocks already seen earlier in the window, over all prompt tokens. */
function reusedShare(): number {
  const seen = new Set<number>();
  let tokens = 0;
  let reused = 0;
  for (const line of readFileSync(TRACE, 'utf8').trim().split('\n')) {
    const r = JSON.parse(line) as { timestamp: number; input_length: number; hash_ids: number[] };
    if (r.timestamp >= WINDOW_MS) break;
    tokens += r.input_length;
    r.hash_ids.forEach((h, i) => {
      if (seen.has(h)) reused += Math.min(512, r.input_length - i * 512);
      seen.add(h);
    });
  }
  return reused / tokens;
}

function scenario(workers: number): string {
  const f = join(dir, `w${workers}.yaml`);
  writeFileSync(
    f,
    stringify({
      name: `mooncake-w${workers}`,
      seed: 1,
      durationMs: WINDOW_MS,
      drainMs: 600_000,
      endpoint: {
        id: 'llm',
        workersMin: workers,
        workersMax: workers,
        workerConcurrency: 64,
        llm: { engine: { decodeMs: 5, perSequenceMs: 0.05, prefillMsPerToken: 0.002, maxNumBatchedTokens: 16_384, prefixCaching: true }, outputTokens: 128 },
      },
      traffic: [
        { name: 'chat', arrival: { process: 'replay', file: TRACE, format: 'mooncake', toMs: WINDOW_MS }, client: { behaviour: 'openai-chat', stream: true } },
      ],
    }),
  );
  return f;
}

test('Mooncake conversation trace: one worker hits its cache for the share of tokens the trace reuses; eight workers behind the queue, clearly less', () => {
  const [one, eight] = cliBatch([1, 8].map((n) => ({ args: ['run', scenario(n), '--out', join(dir, `out${n}`)] }))) as [CliResult, CliResult];
  expect(one.status, one.stderr).toBe(0);
  expect(eight.status, eight.stderr).toBe(0);
  const stream = (n: number) => (JSON.parse(readFileSync(join(dir, `out${n}`, 'report.json'), 'utf8')) as RunResult).flows.chat!.stream!;
  const share = reusedShare();
  expect(share).toBeGreaterThan(0.1); // the window reuses about a tenth of its prompt tokens
  const [s1, s8] = [stream(1), stream(8)];
  expect(s1.requests).toBe(339);
  expect(Math.abs(s1.prefixCacheHitRate! - share)).toBeLessThan(0.03);
  expect(s8.prefixCacheHitRate!).toBeLessThan(share * 0.6);
  expect(s8.promptTokens).toBe(s1.promptTokens);
});
