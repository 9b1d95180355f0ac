/**
 * The stream sections through the CLI: a bad `goodput:` key exits 2 naming the field; `loadlab
 * merge` of two shards adds their stream sections (histograms and counts); `loadlab compare` shows
 * a streaming flow's TTFT, ITL, TPOT, tokens and goodput. One child process for all command lines.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema, type ScenarioInput } from '../../src/load/scenario/schema.js';
import { decodeWindow } from '../../src/report/histogram.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-streams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: '' };

const input = (extra: Partial<ScenarioInput['traffic'][number]> = {}): ScenarioInput => ({
  name: 'streamy',
  seed: 5,
  durationMs: 30_000,
  drainMs: 20_000,
  endpoint: { workersMin: 2, workersMax: 3, jobDurationMs: 2000, workload: { chunks: 5 } },
  traffic: [{ name: 'chat', arrival: { process: 'poisson', ratePerSec: 0.5 }, client: { behaviour: 'run-stream' }, goodput: { ttftMs: 600 }, ...extra }],
  thresholds: ['goodput > 0'],
});

function write(name: string, r: RunResult): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'report.json'), renderJson(r));
  return d;
}

let shards: RunResult[];
let results: CliResult[];

beforeAll(async () => {
  // Two shards of one run, as `run --shard I/2` marks them (the same simulated traffic twice).
  const one = await runScenario(scenarioSchema.parse(input()));
  shards = [0, 1].map((i) =>
    parseRunResult(renderJson({ ...one, shard: { count: 2, indices: [i] }, wallClock: { startedAt: '2026-01-01T00:00:00.000Z', wallMs: 100 } })),
  );
  const dirs = shards.map((r, i) => write(`shard-${i}`, r));
  const slower = await runScenario(scenarioSchema.parse({ ...input(), endpoint: { ...input().endpoint, jobDurationMs: 4000 } }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify(input({ goodput: { ttftMs: 500, tpotMS: 20 } as never })));
  const notStreaming = join(dir, 'not-streaming.json');
  writeFileSync(notStreaming, JSON.stringify(input({ client: { behaviour: 'run-poll' } })));
  const planned = join(dir, 'plan.json');
  writeFileSync(planned, JSON.stringify(input()));
  results = cliBatch(
    [
      { args: ['merge', ...dirs, '--out', join(dir, 'merged')] },
      { args: ['compare', dirs[0]!, write('slower', slower), '--out', join(dir, 'compare')] },
      { args: ['run', bad, '--out', join(dir, 'bad-out')] },
      { args: ['run', notStreaming, '--out', join(dir, 'ns-out')] },
      {
        args: [
          'plan',
          planned,
          '--slo',
          'ttft_p95_ms{flow=chat} < 2000',
          '--slo',
          'goodput{flow=chat} > 0.9',
          '--workers-max',
          '1..3',
          '--seeds',
          '1',
          '--jobs',
          '1',
          '--out',
          join(dir, 'plan-out'),
        ],
      },
      { args: ['plan', planned, '--slo', 'itl_p50_ms{flow=nope} < 2000', '--workers-max', '1..3'] },
    ],
    env,
  );
});

describe('stream sections through the CLI', () => {
  test("merge: the shards' stream histograms and counts add up, whole run and per window", () => {
    expect(results[0]!.status, results[0]!.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(dir, 'merged', 'report.json'), 'utf8')) as RunResult;
    const [a, b] = shards.map((r) => r.flows.chat!.stream!) as [
      NonNullable<RunResult['flows'][string]['stream']>,
      NonNullable<RunResult['flows'][string]['stream']>,
    ];
    const s = m.flows.chat!.stream!;
    expect(a.requests).toBeGreaterThan(0);
    expect([s.requests, s.tokens, s.good, s.broken]).toEqual([a.requests + b.requests, a.tokens + b.tokens, a.good! + b.good!, a.broken + b.broken]);
    expect(a.promptTokens).toBeGreaterThan(0);
    expect(s.promptTokens).toBe(a.promptTokens! + b.promptTokens!);
    for (const k of ['ttftMs', 'itlMs', 'tpotMs', 'tokensPerS'] as const) {
      expect(s[k].count, k).toBe(a[k].count + b[k].count);
      // Within 3 significant digits: above 20.48 ms a stream time added from shards reads as its HDR bucket's top (400 → 400.31).
      expect(Math.abs(s[k].summary.p50 - a[k].summary.p50), k).toBeLessThanOrEqual(a[k].summary.p50 * 1e-3);
    }
    const w = m.windows!.streams!.chat!;
    expect(w.tokens.reduce((x, y) => x + y, 0)).toBe(s.tokens);
    expect(w.ttftMs.filter(Boolean).reduce((n, e) => n + decodeWindow(e).totalCount, 0)).toBe(s.ttftMs.count);
    expect(readFileSync(join(dir, 'merged', 'report.md'), 'utf8')).toContain(`| chat | ${s.requests} (0) | ${s.promptTokens} | ${s.tokens} |`);
  });

  test("compare: a streaming flow's TTFT, ITL, TPOT, tokens and goodput side by side", () => {
    expect(results[1]!.status, results[1]!.stderr).toBe(0);
    const md = readFileSync(join(dir, 'compare', 'compare.md'), 'utf8');
    const a = shards[0]!.flows.chat!.stream!;
    // 5 chunks over 2 s (A) and over 4 s (B): one every 400 and 800 ms.
    expect(a.itlMs.summary.p50).toBe(400);
    expect(md).toMatch(/\| ITL p50 \| 400 ms \| 800 ms \| \+400 ms \| \+100\.0 % \| \*\*worse\*\* \|/);
    expect(md).toMatch(/\| TTFT p95 \| [\d ]+ ms \| [\d ]+ ms \|/);
    expect(md).toMatch(/\| TPOT p50 \| 400 ms \| 800 ms \|/);
    expect(md).toMatch(/\| goodput \| [\d.]+ % \| [\d.]+ % \|/);
    expect(md).toMatch(/\| output tokens\/s \| [\d.]+ \| [\d.]+ \|/);
  });

  test('a bad goodput key, or goodput on a flow that does not stream: exit 2 naming the file and field', () => {
    const [bad, ns] = [results[2]!, results[3]!];
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json: traffic\.0\.goodput\.tpotMS: unknown key "tpotMS"/);
    expect(ns.status).toBe(2);
    expect(ns.stderr).toMatch(/not-streaming\.json: traffic\.0\.goodput: goodput needs a streaming flow .*not run-poll/);
  });

  test('plan: stream SLOs are checked on every point; one naming a flow that does not exist exits 2', () => {
    const [ok, bad] = [results[4]!, results[5]!];
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/RECOMMENDATION: workersMax \d/);
    expect(readFileSync(join(dir, 'plan-out', 'plan.md'), 'utf8')).toContain('ttft_p95_ms{flow=chat} < 2000');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--slo "itl_p50_ms\{flow=nope\} < 2000": unknown flow "nope"/);
  });
});
