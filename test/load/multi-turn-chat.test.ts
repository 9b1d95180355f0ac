/**
 * Multi-turn chats (`openai-chat` with `turns`, `thinkTimeMs`, `systemPromptTokens`) in process,
 * in virtual time: each turn's request carries the whole conversation so far, exactly (the answers
 * as received), so its prompt tokens are the earlier messages' and answers' plus the new message's
 * by the 4-characters-a-token rule; the think time is waited on the virtual clock; the session
 * figures (`flows.*.turns`) count turns and time whole sessions; a failed turn ends its session;
 * open and closed arrivals both run sessions of turns; a seed gives the same report, in process and
 * in lockstep against `serve --clock manual`; shards' figures merge to the whole run's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { LockstepTarget } from '../../src/load/targets/lockstep/lockstep-target.js';
import { mergeRuns } from '../../src/report/merge/merge-runs.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { promptTokensOf, tokensOfText } from '../../src/contract/prompt-tokens.js';
import { answerText } from '../../src/load/behaviours/answer-text.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { renderPlan } from '../../src/plan/dry-run.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { inProcessTarget } from '../../src/load/targets/in-process/for-scenario.js';
import type { TargetRequest, TargetResponse } from '../../src/load/targets/target.js';
import { decode } from '../../src/report/histogram.js';
import { renderJson } from '../../src/report/render-json.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import type { RunResult } from '../../src/report/run-result.js';

const LLM = { ttftMs: 300, interTokenMs: 20, outputTokens: 8 };

function scenario(client: Record<string, unknown>, arrival: Record<string, unknown>, extra: Record<string, unknown> = {}): Scenario {
  const l = parseScenario(
    {
      name: 'chat',
      seed: 4,
      durationMs: 1000,
      endpoint: { id: 'ep', workersMin: 2, workersMax: 2, llm: LLM },
      traffic: [{ name: 'chat', arrival, client: { behaviour: 'openai-chat', ...client } }],
      ...extra,
    },
    'chat.yaml',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

interface Seen {
  req: TargetRequest;
  sentMs: number;
  res?: TargetResponse;
  endMs?: number;
}

/** Runs `sc` in process, keeping every request the simulator was sent and its answer, with their virtual times. */
async function watched(sc: Scenario): Promise<{ r: RunResult; seen: Seen[] }> {
  const seen: Seen[] = [];
  const r = await runScenario(sc, {
    target: (s, seed) => {
      const t = inProcessTarget(s, seed);
      const send = t.send.bind(t);
      t.send = (req, done) => {
        const x: Seen = { req, sentMs: t.now() };
        seen.push(x);
        send(req, (res) => {
          x.res = res;
          x.endMs = t.now();
          done(res);
        });
      };
      return t;
    },
  });
  return { r, seen };
}

type Msg = { role: string; content: string };
const messagesOf = (x: Seen) => (x.req.body as { messages: Msg[] }).messages;

describe('a session of three turns', () => {
  for (const stream of [true, false]) {
    it(`${stream ? 'streamed' : 'plain'}: turn 3 carries the system message, turns 1 and 2's user messages and answers as received, then its own; prompt tokens add up exactly`, async () => {
      const sc = scenario(
        { stream, turns: 3, thinkTimeMs: 5000, promptTokens: 10, systemPromptTokens: 20 },
        { process: 'constant', ratePerSec: 1 }, // one session, at 0 ms
      );
      const { r, seen } = await watched(sc);
      expect(seen.map((x) => x.req.op)).toEqual(['openai', 'openai', 'openai']);
      const [m1, m2, m3] = seen.map(messagesOf);
      const answers = seen.map((x) => answerText(x.res!));
      for (const a of answers) expect(a.length).toBeGreaterThan(0);
      expect(m1!.map((m) => m.role)).toEqual(['system', 'user']);
      expect(m3!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
      // Each turn's messages open with the whole previous request and its answer, character for character.
      expect(m2!.slice(0, 2)).toEqual(m1);
      expect(m2![2]).toEqual({ role: 'assistant', content: answers[0] });
      expect(m3!.slice(0, 4)).toEqual(m2);
      expect(m3![4]).toEqual({ role: 'assistant', content: answers[1] });
      // The system message is 20 tokens, each user message 10, each unique to its session and turn.
      expect(m1![0]!.content.length).toBe(80);
      for (const m of m3!.filter((x) => x.role === 'user')) expect(m.content.length).toBe(40);
      expect(new Set(m3!.filter((x) => x.role === 'user').map((m) => m.content)).size).toBe(3);
      // Prompt tokens of turn k: 20 + the earlier turns' 10 + answer tokens + 10, by the 4-characters rule.
      const answerTokens = answers.map(tokensOfText);
      const expected = [20 + 10, 20 + 10 + answerTokens[0]! + 10, 20 + 10 + answerTokens[0]! + 10 + answerTokens[1]! + 10];
      expect(seen.map((x) => promptTokensOf(x.req.body))).toEqual(expected);
      if (stream) expect(r.flows.chat!.stream!.promptTokens).toBe(expected.reduce((a, b) => a + b));
      // Each next turn goes out exactly the think time after the last answer, on the virtual clock.
      expect(seen[1]!.sentMs).toBe(seen[0]!.endMs! + 5000);
      expect(seen[2]!.sentMs).toBe(seen[1]!.endMs! + 5000);
      // The session: one, COMPLETED, 3 turns, from 0 ms to its last answer; each turn one job.
      const f = r.flows.chat!;
      expect(f).toMatchObject({ sessions: 1, outcomes: { COMPLETED: 1 } });
      expect(f.turns!.total).toBe(3);
      expect(f.turns!.perSession.summary).toMatchObject({ min: 3, max: 3 });
      expect(f.turns!.perSession.count).toBe(1);
      expect(f.turns!.sessionMs.count).toBe(1);
      expect(f.turns!.sessionMs.summary.max).toBe(Math.round(seen[2]!.endMs!));
      expect(r.jobs).toMatchObject({ accepted: 3, outcomes: { COMPLETED: 3 }, finalStatus: { COMPLETED: 3 } });
      expect(r.arrivals).toMatchObject({ intended: 1, sent: 1 });
      expect(r.operations.openai!.requests).toBe(3);
      // Turnaround and TTFT are per turn: from the turn's own send, not the session's start.
      expect(f.jobs!.turnaroundMs!.count).toBe(3);
      expect(f.jobs!.turnaroundMs!.summary.max).toBeLessThan(5000);
      if (stream) expect(f.stream!.ttftMs.summary.max).toBeCloseTo(300, 1);
      expect(renderMarkdown(r)).toMatch(/## Multi-turn sessions[\s\S]*\| chat \| 1 \| 3 \|/);
    });
  }

  it('without promptTokens the prompt is sent as written, {{seq}} and {{turn}} replaced; no system message unless asked', async () => {
    const { seen } = await watched(scenario({ turns: 2, prompt: 'question {{turn}} of chat {{seq}}' }, { process: 'constant', ratePerSec: 1 }));
    const m = messagesOf(seen[1]!);
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
    expect(m[0]!.content).toBe('question 1 of chat 0');
    expect(m[2]!.content).toBe('question 2 of chat 0');
  });

  it('systemPromptTokens on a one-request flow: the system message and the user message', async () => {
    const { r, seen } = await watched(scenario({ systemPromptTokens: 5 }, { process: 'constant', ratePerSec: 2 }));
    expect(seen.map((x) => messagesOf(x).map((m) => m.role))).toEqual([
      ['system', 'user'],
      ['system', 'user'],
    ]);
    expect(messagesOf(seen[0]!)[0]).toEqual(messagesOf(seen[1]!)[0]);
    expect(r.flows.chat!.turns).toBeUndefined();
  });
});

describe('sessions of turns under open and closed arrivals', () => {
  it('closed: each user runs its sessions of turns one after another; every turn one job; a seed gives the same report', async () => {
    const sc = scenario(
      { stream: true, turns: 3, thinkTimeMs: 1000, promptTokens: 16 },
      { process: 'closed', users: 2, thinkTimeMs: 500 },
      { durationMs: 20_000, drainMs: 20_000, thresholds: ['session_max_ms{flow=chat} == 3320', 'session_p50_ms == 3320'] },
    );
    const { r, seen } = await watched(sc);
    const f = r.flows.chat!;
    // A session: 3 answers of 300 + 7 × 20 = 440 ms and two 1 s thinks = 3320 ms, then 500 ms of user think.
    expect(f.turns!.sessionMs.summary).toMatchObject({ min: 3320, max: 3320 });
    expect(r.thresholds.map((t) => [t.ok, t.value])).toEqual([
      [true, 3320],
      [true, 3320],
    ]);
    // Per user: sessions at 0, 3820, …, 19 100: 6 each.
    expect(f).toMatchObject({ arrival: 'closed', users: 2, sessions: 12, outcomes: { COMPLETED: 12 } });
    expect(f.turns!.total).toBe(36);
    expect(seen.length).toBe(36);
    expect(r.jobs.accepted).toBe(36);
    expect(r.arrivals.intended).toBe(12);
    // A user has one request out at a time.
    expect(r.headroom.operations.find((o) => o.operation === 'openai')!.peakInFlight).toBe(2);
    // The dry run counts as the run: sessions of 3 jobs and 2 thinks, 3 requests each.
    const plan = renderPlan(sc).text;
    expect(plan).toContain('closed loop of 2 users, at most ~12 sessions');
    expect(plan).toContain('3 turns a session on average (a request and a job each), ~36 requests');
    expect(plan).toContain('openai ~36');
    const again = await runScenario(sc);
    delete r.wallClock;
    delete again.wallClock;
    expect(renderJson(again)).toBe(renderJson(r));
  });

  it('open: sessions start at their arrival whatever the others do; drawn turns per session; the figures add up', async () => {
    const sc = scenario(
      { turns: { dist: 'uniform', minMs: 1, maxMs: 5 }, thinkTimeMs: { dist: 'exponential', meanMs: 2000 } },
      { process: 'poisson', ratePerSec: 2 },
      { durationMs: 30_000, drainMs: 120_000, endpoint: { id: 'ep', workersMin: 4, workersMax: 4, llm: LLM } },
    );
    const { r, seen } = await watched(sc);
    const f = r.flows.chat!;
    const per = decode(f.turns!.perSession);
    expect(per.totalCount).toBe(f.sessions);
    expect(per.minNonZeroValue).toBe(1);
    expect(per.maxValue).toBe(5);
    // Every session ended and answered all its turns: the turns per session sum to the turns sent.
    expect(f.outcomes).toEqual({ COMPLETED: f.sessions });
    expect(Math.round(per.mean * per.totalCount)).toBe(f.turns!.total);
    expect(seen.length).toBe(f.turns!.total);
    expect(f.turns!.sessionMs.count).toBe(f.sessions);
    expect(r.jobs.accepted).toBe(f.turns!.total);
  });

  it('a turn that fails ends its session with that outcome; the session counts the turns it started', async () => {
    const sc = scenario(
      { turns: 4 },
      { process: 'constant', ratePerSec: 5 },
      { durationMs: 20_000, drainMs: 60_000, endpoint: { id: 'ep', workersMin: 4, workersMax: 4, llm: LLM, workload: { failureProbability: 0.2 } } },
    );
    const { r } = await watched(sc);
    const f = r.flows.chat!;
    expect(f.outcomes.FAILED).toBeGreaterThan(10);
    expect(f.outcomes.COMPLETED).toBeGreaterThan(10);
    expect(f.sessions).toBe(f.outcomes.FAILED! + f.outcomes.COMPLETED!);
    // Only sessions that answered all 4 turns are timed; the others ended at their failed turn.
    expect(f.turns!.sessionMs.count).toBe(f.outcomes.COMPLETED);
    const per = decode(f.turns!.perSession);
    expect(per.totalCount).toBe(f.sessions);
    expect(f.turns!.total).toBeLessThan(4 * f.sessions);
    expect(f.turns!.total).toBe(Math.round(per.mean * per.totalCount));
    // Every turn's job once, in its category: each completed turn COMPLETED, each session's failed turn FAILED.
    expect(r.jobs.accepted).toBe(f.turns!.total);
    expect(r.jobs.outcomes).toEqual({ COMPLETED: f.turns!.total - f.outcomes.FAILED!, FAILED: f.outcomes.FAILED });
  });
});

describe('the same run elsewhere', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const sc = () =>
    scenario(
      { stream: true, turns: { dist: 'uniform', minMs: 2, maxMs: 4 }, thinkTimeMs: { dist: 'uniform', minMs: 500, maxMs: 1500 }, promptTokens: 12 },
      { process: 'closed', users: 3, thinkTimeMs: 200 },
      { durationMs: 10_000, drainMs: 30_000 },
    );

  it('in lockstep against serve --clock manual: the same sessions, outcomes, turns, session times, jobs and prompt tokens as in process', async () => {
    const a = await runScenario(sc());
    const parsed = parseSimConfig({ seed: sc().seed, endpoints: [sc().endpoint] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const srv = await startServer({ config: parsed.config, port: 0, clock: 'manual' });
    servers.push(srv);
    const target = new LockstepTarget(srv.baseUrl, { apiKey: 'k', endpointId: 'ep' });
    const b = await runScenario(sc(), { target: () => target });
    expect(b.target.kind).toBe('lockstep');
    expect(a.flows.chat!.turns!.total).toBeGreaterThan(20);
    // Stream times are not compared: lockstep reads server-sent events over HTTP as they come, not at their virtual instants.
    const { stream: sa, ...fa } = a.flows.chat!;
    const { stream: sb, ...fb } = b.flows.chat!;
    expect(fb).toEqual(fa);
    expect([sb!.requests, sb!.promptTokens, sb!.tokens]).toEqual([sa!.requests, sa!.promptTokens, sa!.tokens]);
    expect(b.jobs).toEqual(a.jobs);
  }, 60_000);

  it("shards' session figures merge exactly: turns add, and so do the turns-per-session and session-time histograms", async () => {
    const shards = await Promise.all([0, 1, 2].map((index) => runScenario(sc(), { shard: { index, count: 3 } })));
    const m = mergeRuns(shards.map((result, i) => ({ name: `shard-${i}`, result }))).flows.chat!.turns!;
    const parts = shards.map((r) => r.flows.chat!.turns!);
    const sum = (f: (t: (typeof parts)[number]) => number) => parts.reduce((n, t) => n + f(t), 0);
    expect(m.total).toBe(sum((t) => t.total));
    expect(m.perSession.count).toBe(sum((t) => t.perSession.count));
    expect(m.sessionMs.count).toBe(sum((t) => t.sessionMs.count));
    expect(m.sessionMs.summary.max).toBe(Math.max(...parts.map((t) => t.sessionMs.summary.max)));
    expect(decode(m.perSession).mean * m.perSession.count).toBeCloseTo(
      sum((t) => decode(t.perSession).mean * t.perSession.count),
      6,
    );
  });
});
