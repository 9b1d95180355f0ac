/**
 * Lockstep against a real `serve --clock manual` on 127.0.0.1: the runner steps the server's
 * clock, and every job outcome a client reads (id, status, queue delay, execution time, and the
 * virtual ms it was read) equals the in-process run of the same scenario and seed. Here: the admin
 * API lockstep relies on, and client timeouts on the very ms a server wait ends. Every example
 * scenario (steady-mix, runsync-heavy, burst-rate-limit, …) is compared the same way in
 * test/load/job-accounting.test.ts, on the runs that check its job accounting.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { LockstepTarget } from '../../../../src/load/targets/lockstep/lockstep-target.js';
import type { JobOutcome } from '../../../../src/load/record/recorder.js';
import { runScenario } from '../../../../src/load/run-scenario.js';
import { scenarioSchema, type Scenario, type ScenarioInput } from '../../../../src/load/scenario/schema.js';
import type { RunResult } from '../../../../src/report/run-result.js';
import { parseSimConfig } from '../../../../src/contract/endpoint-config.js';
import { startServer, type RunningServer } from '../../../../src/server/server.js';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function both(sc: Scenario): Promise<{ inProc: JobOutcome[]; lock: JobOutcome[]; a: RunResult; b: RunResult; target: LockstepTarget }> {
  const inProc: JobOutcome[] = [];
  const a = await runScenario(sc, { onJob: (j) => inProc.push(j) });
  const parsed = parseSimConfig({ seed: sc.seed, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const srv = await startServer({ config: parsed.config, port: 0, clock: 'manual' });
  servers.push(srv);
  const target = new LockstepTarget(srv.baseUrl, { apiKey: 'k', endpointId: sc.endpoint.id });
  const lock: JobOutcome[] = [];
  const b = await runScenario(sc, { target: () => target, onJob: (j) => lock.push(j) });
  return { inProc, lock, a, b, target };
}

/** Outcomes in a stable order (the order two answers at one virtual ms arrive in may differ). */
const byId = (l: JobOutcome[]) => [...l].sort((x, y) => x.atMs - y.atMs || (String(x.id) < String(y.id) ? -1 : String(x.id) > String(y.id) ? 1 : 0));

describe('the admin API lockstep relies on (serve --clock manual)', () => {
  test('GET /_sim/clock counts requests received and ended; advance {until: "answer"} stops where a held answer is released or a client marker fires', async () => {
    const parsed = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep', workersMax: 1, jobDurationMs: 1500 }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const srv = await startServer({ config: parsed.config, port: 0, clock: 'manual' });
    servers.push(srv);
    const h = { authorization: 'Bearer k', 'content-type': 'application/json' };
    type Counts = { now: number; received: number; ended: number; markers: number };
    const clock = async () => (await (await fetch(`${srv.origin}/_sim/clock`, { headers: h })).json()) as Counts;
    const advance = async (body: unknown) =>
      (await (await fetch(`${srv.origin}/_sim/advance`, { method: 'POST', headers: h, body: JSON.stringify(body) })).json()) as Counts;
    expect(await clock()).toEqual({ now: 0, received: 0, ended: 0, markers: 0 });
    const held = fetch(`${srv.baseUrl}/ep/runsync?wait=60000`, { method: 'POST', headers: h, body: JSON.stringify({ input: {} }) });
    let c = await clock();
    for (let i = 0; i < 100 && c.received < 1; i++) c = await clock();
    expect(c).toEqual({ now: 0, received: 1, ended: 0, markers: 0 });
    // The job ends at 1500 ms: the advance stops there although 10 s were asked for.
    expect(await advance({ ms: 10_000, until: 'answer' })).toEqual({ now: 1500, received: 1, ended: 1, markers: 0 });
    expect(((await (await held).json()) as { status: string }).status).toBe('COMPLETED');
    // Without `until`, an advance runs its whole span.
    expect(await advance({ ms: 10_000 })).toEqual({ now: 11_500, received: 1, ended: 1, markers: 0 });
    // Client markers take their turn among simulator events; an advance stops after each.
    const mark = async (atMs: number[]) =>
      (await (await fetch(`${srv.origin}/_sim/mark`, { method: 'POST', headers: h, body: JSON.stringify({ atMs }) })).json()) as Counts;
    expect(await mark([12_000, 13_000])).toMatchObject({ now: 11_500, markers: 0 });
    expect(await advance({ ms: 5000, until: 'answer' })).toMatchObject({ now: 12_000, markers: 1 });
    expect(await advance({ ms: 5000, until: 'answer' })).toMatchObject({ now: 13_000, markers: 2 });
    expect(await advance({ ms: 5000, until: 'answer' })).toMatchObject({ now: 18_000, markers: 2 });
  });
});

describe('lockstep with serve --clock manual', () => {
  test('client timeouts (runsync, /status-sync and /stream timing out, on the very ms a server wait ends too; polls cut off at the hard end): every outcome equals in-process', async () => {
    const sc = scenarioSchema.parse({
      name: 'client-timeouts',
      seed: 7,
      durationMs: 60_000,
      drainMs: 30_000,
      // 1.5 s jobs on two warm workers, fewer than the arrivals need: the queue grows, and so do the waits.
      endpoint: { id: 'to', workersMin: 2, workersMax: 2, jobDurationMs: 1500, workload: { chunks: 4 } },
      traffic: [
        // Timeout = ?wait=: the server's wait and the client's timeout end on one ms; in-process the server's comes first.
        {
          name: 'tie',
          arrival: { process: 'constant', ratePerSec: 1 },
          client: { behaviour: 'runsync', waitMs: 1000, statusSyncWaitMs: 1000, timeoutMs: 1000 },
        },
        { name: 'sync', arrival: { process: 'poisson', ratePerSec: 0.3 }, client: { behaviour: 'runsync', waitMs: 5000, timeoutMs: 2000 } },
        {
          name: 'follow',
          arrival: { process: 'poisson', ratePerSec: 0.3 },
          client: { behaviour: 'runsync', waitMs: 1000, statusSyncWaitMs: 5000, timeoutMs: 2500 },
        },
        { name: 'stream', arrival: { process: 'poisson', ratePerSec: 0.3 }, client: { behaviour: 'run-stream', waitMs: 5000, timeoutMs: 1200 } },
        // Whole-second polls, many still going at the hard end (in-process runs the timers of that ms too).
        {
          name: 'poll',
          arrival: { process: 'constant', ratePerSec: 0.5 },
          client: { behaviour: 'run-poll', poll: { baseMs: 1000, factor: 1, maxMs: 1000, jitter: 0 } },
        },
      ],
    } satisfies ScenarioInput);
    const { inProc, lock, a, b } = await both(sc);
    expect(a.operations.runsync!.clientTimeouts).toBeGreaterThan(10);
    expect(a.operations['status-sync']!.clientTimeouts).toBeGreaterThan(10);
    expect(a.operations.stream!.clientTimeouts).toBeGreaterThan(0);
    expect(a.flows.poll!.outcomes.unfinished).toBeGreaterThan(0);
    expect(byId(lock)).toEqual(byId(inProc));
    for (const op of Object.keys(a.operations)) {
      expect(b.operations[op]!.clientTimeouts, op).toBe(a.operations[op]!.clientTimeouts);
      expect(b.operations[op]!.byStatus, op).toEqual(a.operations[op]!.byStatus);
    }
    expect(b.flows).toEqual(a.flows);
    expect(b.elapsedMs).toBe(a.elapsedMs);
  }, 120_000);

  test("an llm: endpoint's streamed chat completions (a stream is answered when it ends, as in process): every outcome equals in-process", async () => {
    const sc = scenarioSchema.parse({
      name: 'llm-streams',
      seed: 3,
      durationMs: 20_000,
      endpoint: {
        id: 'llm',
        workersMin: 1,
        workersMax: 2,
        llm: {
          ttftMs: { dist: 'uniform', minMs: 100, maxMs: 500 },
          interTokenMs: { dist: 'uniform', minMs: 10, maxMs: 50 },
          outputTokens: { dist: 'uniform', minMs: 5, maxMs: 40 },
        },
      },
      traffic: [
        { name: 'streamed', arrival: { process: 'poisson', ratePerSec: 1 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 30 } },
        { name: 'plain', arrival: { process: 'poisson', ratePerSec: 0.5 }, client: { behaviour: 'openai-chat', maxTokens: 30 } },
      ],
    } satisfies ScenarioInput);
    const { inProc, lock, a, b } = await both(sc);
    expect(a.flows.streamed!.outcomes.COMPLETED).toBeGreaterThan(5);
    expect(byId(lock)).toEqual(byId(inProc));
    // Lockstep dates a stream's events at the advance that delivered them (docs/streams.md): its
    // counts and tokens equal in-process, its chunk times are coarser.
    const { stream: sa, ...fa } = a.flows.streamed!;
    const { stream: sb, ...fb } = b.flows.streamed!;
    expect(fb).toEqual(fa);
    expect([sb!.requests, sb!.tokens, sb!.broken, sb!.ttftMs.count, sb!.itlMs.count]).toEqual([
      sa!.requests,
      sa!.tokens,
      sa!.broken,
      sa!.ttftMs.count,
      sa!.itlMs.count,
    ]);
    expect(b.flows.plain).toEqual(a.flows.plain);
    expect(b.operations.openai!.byStatus).toEqual(a.operations.openai!.byStatus);
  }, 120_000);

  test('batching workers holding several jobs (workerConcurrency, llm.engine): every outcome equals in-process', async () => {
    const sc = scenarioSchema.parse({
      name: 'llm-batched',
      seed: 5,
      durationMs: 20_000,
      endpoint: {
        id: 'llm',
        workersMax: 2,
        workerConcurrency: 4,
        coldStartMs: 500,
        idleTimeoutMs: 2000,
        executionTimeoutMs: 800,
        llm: {
          engine: { decodeMs: 7.25, perSequenceMs: 1.5, prefillMsPerToken: 0.25, overheadMs: 3, maxNumSeqs: 3, maxNumBatchedTokens: 64 },
          outputTokens: { dist: 'uniform', minMs: 5, maxMs: 120 },
        },
      },
      traffic: [
        {
          name: 'streamed',
          arrival: { process: 'poisson', ratePerSec: 4 },
          client: { behaviour: 'openai-chat', stream: true, maxTokens: 100, prompt: 'Summarise ticket #{{seq}} {{seq}} {{seq}} {{seq}}' },
        },
        { name: 'jobs', arrival: { process: 'poisson', ratePerSec: 1 }, client: { behaviour: 'run-poll' } },
      ],
    } satisfies ScenarioInput);
    const { inProc, lock, a, b } = await both(sc);
    expect(a.flows.streamed!.outcomes.COMPLETED).toBeGreaterThan(20);
    expect(a.flows.streamed!.outcomes.TIMED_OUT ?? 0).toBeGreaterThan(0);
    expect(byId(lock)).toEqual(byId(inProc));
    expect(b.flows.jobs).toEqual(a.flows.jobs);
    expect(b.elapsedMs).toBe(a.elapsedMs);
    // The engines over time, from the server's own integration (POST /_sim/occupancy), equal in-process.
    expect(a.engine!.runningMean).toBeGreaterThan(0);
    expect(b.windows!.endpoint!.engine).toEqual(a.windows!.endpoint!.engine);
    expect(b.engine).toEqual(a.engine);
  }, 120_000);

  test('closed flows (users re-sending when their session ends, drawn think times, a ramp-up; more users than workers): every outcome equals in-process', async () => {
    const sc = scenarioSchema.parse({
      name: 'closed-lockstep',
      seed: 5,
      durationMs: 20_000,
      endpoint: { id: 'cl', workersMin: 2, workersMax: 3, jobDurationMs: { dist: 'exponential', meanMs: 700 } },
      traffic: [
        { name: 'sync', arrival: { process: 'closed', users: 4, thinkTimeMs: { dist: 'uniform', minMs: 0, maxMs: 400 } }, client: { behaviour: 'runsync' } },
        {
          name: 'poll',
          arrival: { process: 'closed', users: 3, rampUpMs: 3000, thinkTimeMs: 250 },
          client: { behaviour: 'run-poll', poll: { baseMs: 200, factor: 1.5, maxMs: 1000, jitter: 0.2 } },
        },
      ],
    } satisfies ScenarioInput);
    const { inProc, lock, a, b } = await both(sc);
    expect(a.flows.sync!.outcomes.COMPLETED).toBeGreaterThan(20);
    expect(a.flows.poll!.outcomes.COMPLETED).toBeGreaterThan(10);
    expect(a.headroom.peakQueueDepth).toBeGreaterThan(0);
    expect(byId(lock)).toEqual(byId(inProc));
    expect(b.flows).toEqual(a.flows);
    expect(b.elapsedMs).toBe(a.elapsedMs);
  }, 120_000);
});

describe('a run that reaches the end of its drain with sessions unfinished', () => {
  // scenarios/concurrency-purge.yaml with shorter drains: polls every 5 s, pollers of queued jobs still going at the end.
  const purge = (drainMs: number): Scenario => {
    const raw = parse(readFileSync('scenarios/concurrency-purge.yaml', 'utf8')) as Record<string, unknown>;
    delete raw.$schema;
    return scenarioSchema.parse({ ...raw, drainMs });
  };

  test.each([
    // The last event before the end is a poll at 43 000: the run still ends at 43 300.
    [3_300, 43_300],
    // In process a retention lane nobody watches fires up to 1 s late (at 70 000), over HTTP on time.
    [30_000, 70_000],
  ])(
    'concurrency-purge with drainMs %i: lockstep and in-process both end at durationMs + drainMs (%i)',
    async (drainMs, endMs) => {
      const { inProc, lock, a, b } = await both(purge(drainMs));
      expect(a.flows.batch!.outcomes.unfinished).toBeGreaterThan(0);
      expect(a.elapsedMs).toBe(endMs);
      expect(b.elapsedMs).toBe(a.elapsedMs);
      expect(byId(lock)).toEqual(byId(inProc));
      expect(b.flows).toEqual(a.flows);
      expect(b.timeline.requests.length).toBe(a.timeline.requests.length);
    },
    120_000,
  );
});
