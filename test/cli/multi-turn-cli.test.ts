/**
 * `loadlab run` of a multi-turn chat through the built CLI (run `npm run build` first): the run
 * writes the session figures to report.json and report.md, `--dry-run` counts a request per turn,
 * and bad multi-turn keys exit 2 naming the field. One child process for all command lines.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { batched } from '../helpers/cli-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-multi-turn-'));

function scenario(
  name: string,
  client: Record<string, unknown>,
  arrival: Record<string, unknown> = { process: 'closed', users: 2 },
  thresholds: string[] = [],
): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      durationMs: 10_000,
      drainMs: 30_000,
      endpoint: { id: 'ep', workersMin: 1, workersMax: 1, workerConcurrency: 4, llm: { ttftMs: 200, interTokenMs: 10, outputTokens: 16 } },
      traffic: [{ name: 'chat', arrival, client: { behaviour: 'openai-chat', stream: true, ...client } }],
      thresholds,
    }),
  );
  return file;
}

writeFileSync(join(dir, 'trace.csv'), 'atMs,promptTokens,outputTokens\n0,10,5\n100,20,5\n');
const out = join(dir, 'out');
const good = { turns: 3, thinkTimeMs: 2000, promptTokens: 20, systemPromptTokens: 100 };

const run = batched(() => [
  { args: ['run', scenario('good', good, undefined, ['session_p95_ms{flow=chat} < 60000']), '--out', out] },
  { args: ['run', scenario('good-dry', good), '--dry-run'] },
  { args: ['run', scenario('zero-turns', { turns: 0 }), '--dry-run'] },
  { args: ['run', scenario('many-turns', { turns: 1001 }), '--dry-run'] },
  { args: ['run', scenario('think-alone', { thinkTimeMs: 500 }), '--dry-run'] },
  { args: ['run', scenario('trace-turns', { turns: 2, systemPromptTokens: 10 }, { process: 'replay', file: 'trace.csv', format: 'csv' }), '--dry-run'] },
  { args: ['run', scenario('no-system', { turns: 2, systemPromptTokens: 0 }), '--dry-run'] },
  { args: ['run', scenario('session-no-turns', {}, undefined, ['session_p95_ms < 1000']), '--dry-run'] },
]);

describe('loadlab run with turns', () => {
  test('a closed flow of 3-turn sessions: flows.chat.turns in report.json, the Multi-turn sessions table in report.md and report.html', () => {
    const r = run(0);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const f = j.flows.chat;
    expect(f.outcomes).toEqual({ COMPLETED: f.sessions });
    expect(f.turns.total).toBe(3 * f.sessions);
    expect(f.turns.perSession.summary).toMatchObject({ min: 3, max: 3 });
    expect(f.turns.perSession.count).toBe(f.sessions);
    expect(f.turns.sessionMs.count).toBe(f.sessions);
    // Two thinks of 2 s and three answers of at least 200 + 15 × 10 ms each.
    expect(f.turns.sessionMs.summary.min).toBeGreaterThanOrEqual(2 * 2000 + 3 * 350);
    expect(j.jobs.accepted).toBe(f.turns.total);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Multi-turn sessions');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Multi-turn sessions');
    expect(j.thresholds[0]).toMatchObject({ ok: true, value: f.turns.sessionMs.summary.p95 });
  });

  test('--dry-run counts a request per turn', () => {
    const r = run(1);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/3 turns a session on average \(a request and a job each\), ~\d+ requests/);
  });

  test('bad multi-turn keys exit 2 naming the field', () => {
    const cases: [number, RegExp][] = [
      [2, /traffic\.0\.client\.turns: .*1/],
      [3, /traffic\.0\.client\.turns: must be at most 1000/],
      [4, /traffic\.0\.client\.thinkTimeMs: needs turns/],
      [5, /traffic\.0\.client\.turns: not with a token trace[\s\S]*traffic\.0\.client\.systemPromptTokens: not with a token trace/],
      [6, /traffic\.0\.client\.systemPromptTokens: /],
      [7, /thresholds\.0: metric "session_p95_ms" needs a multi-turn flow \(openai-chat with turns\)/],
    ];
    for (const [i, re] of cases) {
      const r = run(i);
      expect(r.status, `${i}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr, String(i)).toMatch(re);
    }
  });
});
