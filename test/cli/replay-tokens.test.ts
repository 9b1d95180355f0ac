/**
 * `loadlab run` replaying a token trace (`replay` with `format`) on the embedded simulator, run in
 * this process: the Azure conversation trace gives exactly its requests, prompt tokens and answer
 * tokens in report.json; the same seed gives the same report; shards split the requests and merge
 * to the same sums; a bad row is a usage error (exit 2) naming the file, line and field; the dry
 * run summarises the trace.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCommand, type RunArgs } from '../../src/cli/commands/run.js';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { mergeRuns } from '../../src/report/merge/merge-runs.js';
import { stdoutOf } from '../helpers/stdout-of.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-replay-tokens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AZURE = resolve('scenarios/traces/azure2023_conv.csv');

/** A scenario replaying `arrival` (file, format, …) as streamed chat on a batching LLM endpoint. */
function scenario(name: string, arrival: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(
    f,
    JSON.stringify({
      name,
      durationMs: 3_600_000,
      drainMs: 300_000,
      endpoint: {
        id: 'llm',
        workersMin: 4,
        workersMax: 4,
        workerConcurrency: 32,
        // The engine draws 5 tokens an answer: a replayed request must get exactly its own length instead.
        llm: { engine: { decodeMs: 6.5, perSequenceMs: 0.3, prefillMsPerToken: 0.02, overheadMs: 30 }, outputTokens: 5 },
      },
      traffic: [{ name: 'chat', arrival: { process: 'replay', ...arrival }, client: { behaviour: 'openai-chat', stream: true } }],
      ...extra,
    }),
  );
  return f;
}

async function reportOf(file: string, out: string, seed?: number): Promise<{ json: string; report: any }> {
  const r = await stdoutOf(() => runCommand({ scenario: file, out: join(dir, out), ...(seed === undefined ? {} : { seed }) } as RunArgs));
  expect(r.code).toBe(0);
  const json = readFileSync(join(dir, out, 'report.json'), 'utf8');
  return { json, report: JSON.parse(json) };
}

describe('replaying the Azure conversation trace (19 366 requests)', () => {
  test('report.json: exactly its requests, prompt tokens and answer tokens; report.md shows both token sums', async () => {
    const { report } = await reportOf(scenario('azure', { file: AZURE, format: 'azure' }), 'azure');
    expect(report.arrivals.intended).toBe(19_366);
    const s = report.flows.chat.stream;
    expect([s.requests, s.broken, s.promptTokens, s.tokens]).toEqual([19_366, 0, 22_361_870, 4_088_665]);
    const md = readFileSync(join(dir, 'azure', 'report.md'), 'utf8');
    expect(md).toMatch(/\| chat \| 19366 \(0\) \| 22361870 \| 4088665 \|/);
    expect(readFileSync(join(dir, 'azure', 'report.html'), 'utf8')).toMatch(/prompt tokens[\s\S]*22361870/);
  }, 120_000);
});

describe('a slice of the trace, faster and looped', () => {
  // Minutes 10 to 12 of the trace's clock at speed 4: 30 s a loop, four loops in the 2 min run.
  const slice = { file: AZURE, format: 'azure', fromMs: 600_000, toMs: 720_000, speed: 4, loop: true };
  test('the same seed gives the same report.json; the slice is replayed four times', async () => {
    const f = scenario('slice', slice, { durationMs: 120_000, drainMs: 60_000 });
    const a = await reportOf(f, 'slice-a', 7);
    const b = await reportOf(f, 'slice-b', 7);
    // Everything but the wall clock's own section.
    const strip = (j: string) => JSON.stringify({ ...JSON.parse(j), wallClock: undefined });
    expect(strip(a.json)).toBe(strip(b.json));
    // The slice's rows, counted from the file: four loops of them.
    const rows = readFileSync(AZURE, 'utf8').trim().split('\n').slice(1);
    const t0 = Date.parse(`${rows[0]!.split(',')[0]!.replace(' ', 'T')}Z`);
    const inSlice = rows.filter((l) => {
      const t = Date.parse(`${l.split(',')[0]!.replace(' ', 'T')}Z`) - t0;
      return t >= 600_000 && t < 720_000;
    });
    expect(inSlice.length).toBeGreaterThan(100);
    expect(a.report.arrivals.intended).toBe(4 * inSlice.length);
    const prompt = inSlice.reduce((n, l) => n + Number(l.split(',')[1]), 0);
    expect(a.report.flows.chat.stream.promptTokens).toBe(4 * prompt);
  }, 60_000);

  test('dry run: the trace summarised (requests, span, rate per minute, token percentiles)', async () => {
    const r = await stdoutOf(() => runCommand({ scenario: scenario('dry', { file: AZURE, format: 'azure' }), 'dry-run': true } as RunArgs));
    expect(r.code).toBe(0);
    expect(r.out).toContain('chat: openai-chat on /openai, ~19366 sessions');
    expect(r.out).toContain('    trace azure2023_conv.csv (azure): 19366 requests over 58.4 min');
    expect(r.out).toMatch(/ {4}requests per minute \(59 of them\): min \d+ \/ median \d+ \/ max \d+; peak \d+ in one second/);
    expect(r.out).toMatch(
      /prompt tokens p50 \/ p90 \/ p99 \/ max: \d+ \/ \d+ \/ \d+ \/ 14050 \(22361870 in all\); answer tokens: \d+ \/ \d+ \/ \d+ \/ 1000 \(4088665 in all\)/,
    );
  });
});

describe('shards of a token trace', () => {
  test('two shards split the requests; merged, their requests and token sums are the unsharded run’s', async () => {
    const l = loadScenarioFile(scenario('shards', { file: AZURE, format: 'azure', toMs: 300_000 }, { durationMs: 300_000 }));
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const whole = (await runScenario(l.scenario)).flows.chat!.stream!;
    const parts = await Promise.all([0, 1].map((index) => runScenario(l.scenario, { shard: { index, count: 2 } })));
    expect(parts.map((p) => p.flows.chat!.stream!.requests).sort()).toEqual([Math.floor(whole.requests / 2), Math.ceil(whole.requests / 2)].sort());
    const m = mergeRuns(parts.map((result, i) => ({ name: `shard-${i}`, result }))).flows.chat!.stream!;
    expect([m.requests, m.promptTokens, m.tokens]).toEqual([whole.requests, whole.promptTokens, whole.tokens]);
    expect(whole.requests).toBeGreaterThan(1000);
  }, 60_000);
});

describe('the Mooncake conversation trace: prompts built from their block ids', () => {
  test('its first minute: every request sent with exactly its input_length, answered with exactly its output_length', async () => {
    const file = resolve('scenarios/traces/mooncake_fast25_conversation.jsonl');
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { timestamp: number; input_length: number; output_length: number })
      .filter((r) => r.timestamp < 60_000);
    const f = scenario(
      'mooncake',
      { file, format: 'mooncake', toMs: 60_000 },
      {
        durationMs: 60_000,
        endpoint: {
          id: 'llm',
          workersMin: 8,
          workersMax: 8,
          workerConcurrency: 64,
          llm: { engine: { decodeMs: 2, prefillMsPerToken: 0.001 }, outputTokens: 5 },
        },
      },
    );
    const { report } = await reportOf(f, 'mooncake');
    const s = report.flows.chat.stream;
    expect(rows.length).toBeGreaterThan(100);
    expect([s.requests, s.broken, s.promptTokens, s.tokens]).toEqual([
      rows.length,
      0,
      rows.reduce((n, r) => n + r.input_length, 0),
      rows.reduce((n, r) => n + r.output_length, 0),
    ]);
  }, 60_000);
});

describe('BurstGPT: failed requests (Response tokens 0) skipped', () => {
  test('the dry run counts the requests replayed and the rows skipped', async () => {
    const trace = join(dir, 'burst.csv');
    writeFileSync(
      trace,
      'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n0,ChatGPT,100,10,110,Conversation log\n1.5,GPT-4,200,0,200,Conversation log\n3,GPT-4,300,30,330,API log\n',
    );
    const r = await stdoutOf(() => runCommand({ scenario: scenario('burst', { file: trace, format: 'burstgpt' }), 'dry-run': true } as RunArgs));
    expect(r.out).toContain('    trace burst.csv (burstgpt): 2 requests over 3.0 s; 1 row with an answer of 0 tokens skipped');
    expect(r.out).toContain('prompt tokens p50 / p90 / p99 / max: 100 / 300 / 300 / 300 (400 in all); answer tokens: 10 / 30 / 30 / 30 (40 in all)');
  });
});

describe('a bad trace is a usage error naming the file, line and field (exit 2)', () => {
  const CASES: [string, string, string, Record<string, unknown>, RegExp][] = [
    [
      'azure-token',
      'bad.csv',
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,10,5\n2023-11-16 18:15:47.00,abc,5\n',
      { format: 'azure' },
      /line 3, field ContextTokens: "abc" is not a whole number >= 0/,
    ],
    [
      'azure-time',
      'bad.csv',
      'TIMESTAMP,ContextTokens,GeneratedTokens\n18:15:46,10,5\n',
      { format: 'azure' },
      /line 2, field TIMESTAMP: "18:15:46" is not a time/,
    ],
    [
      'azure-answer',
      'bad.csv',
      'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,10,5000\n',
      { format: 'azure' },
      /line 2, field GeneratedTokens: 5000 tokens is more than 4096/,
    ],
    [
      'burstgpt-header',
      'bad.csv',
      'Timestamp,Model,Request tokens\n1.5,ChatGPT,20\n',
      { format: 'burstgpt' },
      /line 1, field Response tokens: no column named "Response tokens"/,
    ],
    [
      'mooncake-json',
      'bad.jsonl',
      '{"timestamp": 0, "input_length": 10, "output_length": 2}\n{"timestamp": 5, "input_length"\n',
      { format: 'mooncake' },
      /line 2, the line: not JSON/,
    ],
    ['mooncake-missing', 'bad.jsonl', '{"timestamp": 0, "input_length": 10}\n', { format: 'mooncake' }, /line 1, field output_length: missing/],
    [
      'csv-order',
      'bad.csv',
      't_s,in,out\n1.0,10,5\n0.5,10,5\n',
      { format: 'csv', columns: { atS: 't_s', promptTokens: 'in', outputTokens: 'out' } },
      /line 3, field t_s: earlier than the row before it/,
    ],
    [
      'window-empty',
      'ok.csv',
      'atMs,promptTokens,outputTokens\n0,10,5\n100,10,5\n',
      { format: 'csv', fromMs: 5000, toMs: 6000 },
      /no request in the window \[5000, 6000\) ms/,
    ],
  ];
  test.each(CASES)('%s', async (name, traceName, text, arrival, msg) => {
    const trace = join(dir, `${name}-${traceName}`);
    writeFileSync(trace, text);
    const f = scenario(`bad-${name}`, { file: trace, ...arrival });
    const e = await runCommand({ scenario: f, out: join(dir, `bad-${name}`) } as RunArgs).then(
      () => undefined,
      (x: unknown) => x as { exitCode: number; message: string },
    );
    expect(e?.exitCode).toBe(2);
    expect(e?.message).toContain(`${f}: traffic.0.arrival.`);
    expect(e?.message).toContain(trace);
    expect(e?.message).toMatch(msg);
  });
  test('a trace file that is not there', async () => {
    const f = scenario('missing', { file: 'no-such-trace.csv', format: 'azure' });
    await expect(runCommand({ scenario: f, 'dry-run': true } as RunArgs)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/traffic\.0\.arrival\.file: cannot read .*no-such-trace\.csv/),
    });
  });
});
