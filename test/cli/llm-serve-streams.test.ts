/**
 * The runner's stream metrics against `loadlab serve` streaming an llm endpoint's tokens in real
 * time (200 ms to the first token, then one every 100 ms): measured TTFT and ITL agree with the
 * configured timings, within margins a loaded machine keeps (tens to hundreds of ms of timer and
 * scheduling lag at the median; the least delayed request keeps close to the schedule) that still
 * tell the first token from the second and one gap from none or two, and in one run a TTFT
 * threshold passes while a tighter one fails with exit 99.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/report/run-result.js';
import { startServe, type ServeProcess } from './serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-llm-serve-'));
const file = join(dir, 'llm.json');
const TTFT_MS = 200;
const ITL_MS = 100;
const TOKENS = 6;
let serve: ServeProcess;

beforeAll(async () => {
  writeFileSync(
    file,
    JSON.stringify({
      name: 'llm-serve',
      seed: 1,
      durationMs: 3000,
      drainMs: 10_000,
      endpoint: { id: 'llm', workersMin: 4, workersMax: 4, llm: { ttftMs: TTFT_MS, interTokenMs: ITL_MS, outputTokens: TOKENS } },
      // A busy machine may send late: this test looks at the stream, not at lateness.
      openModel: { lateAfterMs: 5000 },
      traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 3 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 64 } }],
      thresholds: ['ttft_p50_ms{flow=chat} < 1000', 'ttft_p50_ms{flow=chat} < 150'],
    }),
  );
  serve = await startServe(['--config', file]);
});

afterAll(() => {
  serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("stream metrics against serve's token streams", () => {
  it('TTFT and ITL as configured at p50; the loose threshold passes, the tight one fails: exit 99', () => {
    const out = join(dir, 'run');
    const r = spawnSync('node', ['bin/loadlab.js', 'run', file, '--target', serve.base, '--out', out], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: '' },
    });
    expect(r.status, r.stderr).toBe(99);
    const res = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    const s = res.flows.chat!.stream!;
    expect(s.requests).toBe(9);
    expect(s.tokens).toBe(9 * TOKENS);
    expect(s.broken).toBe(0);
    // TTFT runs from the intended send: a loaded machine's send lag is in it, and is taken out here.
    const fromSend = s.ttftMs.summary.p50 - res.arrivals.sendLagMs.summary.p50;
    // A loaded machine makes every time later, never earlier: the median to margins it keeps (before
    // the stream's last token), the least delayed request to the schedule (before the second token).
    expect(s.ttftMs.summary.p50).toBeGreaterThanOrEqual(TTFT_MS);
    expect(s.ttftMs.summary.min).toBeLessThan(TTFT_MS + ITL_MS);
    expect(fromSend).toBeLessThan(TTFT_MS + (TOKENS - 1) * ITL_MS);
    expect(Math.abs(s.itlMs.summary.p50 - ITL_MS)).toBeLessThanOrEqual(ITL_MS / 4);
    expect(Math.abs(s.tpotMs.summary.p50 - ITL_MS)).toBeLessThanOrEqual(ITL_MS / 4);
    expect(res.thresholds.map((t) => [t.expr, t.ok])).toEqual([
      ['ttft_p50_ms{flow=chat} < 1000', true],
      ['ttft_p50_ms{flow=chat} < 150', false],
    ]);
  });
});
