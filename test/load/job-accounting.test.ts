/**
 * Every accepted job is counted once, in one category (jobs.outcomes), and the categories sum to
 * jobs.accepted — for every example scenario, in-process and in lockstep against a
 * `serve --clock manual` — and `accepted` and `purged` equal what the simulator itself did; the
 * endpoint's time averages (`windows.endpoint`) are the same in both.
 *
 * The same two runs show lockstep's promise (targets/lockstep/lockstep-target.test.ts holds its
 * admin API and client timeouts): every job outcome a client reads (id, status, queue delay,
 * execution time, and the virtual ms it was read) equals the in-process run's, and so do the
 * answers per operation.
 */
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { LockstepTarget } from '../../src/load/targets/lockstep/lockstep-target.js';
import type { JobOutcome } from '../../src/load/record/recorder.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { inProcessTarget } from '../../src/load/targets/in-process/for-scenario.js';
import { loadScenarioFile } from '../../src/load/scenario/loader.js';
import { scenarioSchema, type Scenario, type ScenarioInput } from '../../src/load/scenario/schema.js';
import type { RunResult } from '../../src/report/run-result.js';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** What the simulator did: jobs accepted and purged (its own events). */
function watch(sim: Simulator): { accepted: number; purged: number } {
  const n = { accepted: 0, purged: 0 };
  sim.bus.on((e) => {
    if (e.type === 'job.accepted') n.accepted++;
    else if (e.type === 'job.purged') n.purged++;
  });
  return n;
}

function checkLedger(r: RunResult, sim: { accepted: number; purged: number }): void {
  const cats = r.jobs.outcomes!;
  expect(
    Object.values(cats).reduce((a, b) => a + b, 0),
    JSON.stringify(cats),
  ).toBe(r.jobs.accepted);
  expect(r.jobs.accepted).toBe(sim.accepted);
  expect(r.jobs.purged).toBe(sim.purged);
  expect(cats.purged ?? 0).toBe(sim.purged);
  for (const [k, v] of Object.entries(r.jobs.finalStatus)) expect(cats[k], k).toBe(v);
}

/** Outcomes in a stable order (the order two answers at one virtual ms arrive in may differ). */
const byId = (l: JobOutcome[]) => [...l].sort((x, y) => x.atMs - y.atMs || (String(x.id) < String(y.id) ? -1 : String(x.id) > String(y.id) ? 1 : 0));

interface Both {
  a: RunResult;
  b: RunResult;
  inProc: JobOutcome[];
  target: LockstepTarget;
}

async function both(sc: Scenario): Promise<Both> {
  let simA: { accepted: number; purged: number } | undefined;
  const inProc: JobOutcome[] = [];
  const a = await runScenario(sc, {
    target: (s, seed) => {
      const t = inProcessTarget(s, seed);
      simA = watch(t.sim);
      return t;
    },
    onJob: (j) => inProc.push(j),
  });
  checkLedger(a, simA!);
  const parsed = parseSimConfig({ seed: sc.seed, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const srv = await startServer({ config: parsed.config, port: 0, clock: 'manual' });
  servers.push(srv);
  const simB = watch(srv.sim);
  const target = new LockstepTarget(srv.baseUrl, { apiKey: 'k', endpointId: sc.endpoint.id });
  const lock: JobOutcome[] = [];
  const b = await runScenario(sc, { target: () => target, onJob: (j) => lock.push(j) });
  checkLedger(b, simB);
  expect(b.target.kind).toBe('lockstep');
  expect(b.jobs).toEqual(a.jobs);
  // Every job outcome a client read, and every operation's answers, as in-process.
  expect(byId(lock)).toEqual(byId(inProc));
  for (const op of Object.keys(a.operations)) {
    expect(b.operations[op]!.byStatus, op).toEqual(a.operations[op]!.byStatus);
    expect(b.operations[op]!.limited, op).toEqual(a.operations[op]!.limited);
  }
  expect(b.elapsedMs).toBe(a.elapsedMs);
  // The endpoint over time: lockstep reads the server's own exact integration, equal to in-process.
  expect(b.windows!.endpoint).toEqual(a.windows!.endpoint);
  expect(a.windows!.endpoint!.source).toBe('simulator');
  return { a, b, inProc, target };
}

/**
 * Lockstep runs ~1 000 requests per wall second: the examples longer than 2 minutes of traffic
 * are cut to 2 minutes (runsync-heavy's 5 minutes sent ~2 200 /status-sync requests, 2 minutes
 * ~160, with each of its behaviours); llm-sizing to 30 s of traffic after its 60 s of none (cold
 * starts, then batches of streams): its second 30 s repeated the first at ~3.5 s of CPU.
 */
const CUT_MS: Record<string, number> = { 'llm-sizing.yaml': 90_000 };

function example(file: string): Scenario {
  const l = loadScenarioFile(`scenarios/${file}`);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  const cut = CUT_MS[file] ?? 120_000;
  // A loaded scenario is frozen: the cut one is a new object.
  return l.scenario.durationMs > cut ? { ...l.scenario, durationMs: cut } : l.scenario;
}

/** What some examples must also show, so that lockstep is put to the test. */
const EXTRA: Record<string, (r: Both) => void> = {
  // Run-poll, runsync, stream and health.
  'steady-mix.yaml': ({ inProc, target }) => {
    expect(inProc.length).toBeGreaterThan(250);
    expect(target.advances).toBeGreaterThan(100);
  },
  // Runsync past its wait, /status-sync follow-ups, failures /retry-ed, openai chat.
  'runsync-heavy.yaml': ({ a, inProc }) => {
    expect(inProc.length).toBeGreaterThan(150);
    expect(a.jobs.retriedByClient).toBeGreaterThan(0);
    expect(a.operations['status-sync']!.requests).toBeGreaterThan(50);
  },
  // Ties: 200 ms jobs, whole-ms polls, 150 arrivals/s, 429 back-off; equal thanks to client markers.
  'burst-rate-limit.yaml': ({ a }) => expect(a.operations.run!.limited.rate).toBeGreaterThan(1000),
};

describe('job accounting', () => {
  for (const f of readdirSync('scenarios')
    .filter((x) => x.endsWith('.yaml'))
    .sort()) {
    test(`${f}: the categories sum to accepted, in-process and in lockstep; lockstep's job outcomes equal in-process`, async () => {
      const r = await both(example(f));
      expect(r.a.jobs.accepted).toBeGreaterThan(0);
      EXTRA[f]?.(r);
    }, 180_000);
  }
  test('the examples with extra checks exist', () => {
    for (const f of Object.keys(EXTRA)) expect(readdirSync('scenarios')).toContain(f);
  });

  test('purged jobs (queued, then /purge-queue) are a category; held /runsync and OpenAI requests of removed or failed jobs count as accepted', async () => {
    const sc = scenarioSchema.parse({
      name: 'purges',
      seed: 5,
      durationMs: 60_000,
      drainMs: 120_000,
      endpoint: { id: 'ep', workersMax: 1, jobDurationMs: 2000, workload: { failureProbability: 0.4 } },
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'poisson', ratePerSec: 1 },
          client: { behaviour: 'run-poll', retryFailed: 1, poll: { baseMs: 1000, factor: 1, maxMs: 1000, jitter: 0 } },
        },
        { name: 'sync', arrival: { process: 'poisson', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 60_000 } },
        { name: 'chat', arrival: { process: 'poisson', ratePerSec: 0.5 }, client: { behaviour: 'openai-chat' } },
        { name: 'purge', arrival: { process: 'constant', ratePerSec: 0.1 }, client: { behaviour: 'purge-queue' } },
      ],
    } satisfies ScenarioInput);
    const { a } = await both(sc);
    expect(a.jobs.purged).toBeGreaterThan(10);
    expect(a.flows.sync!.outcomes.purged).toBeGreaterThan(0);
    expect(a.flows.poll!.outcomes.purged).toBeGreaterThan(0);
    expect(a.flows.chat!.outcomes.FAILED).toBeGreaterThan(0);
    expect(a.jobs.retriedByClient).toBeGreaterThan(0);
    // A retried job is one job: its final status counts once.
    const sessionsWithJobs = ['poll', 'sync', 'chat'].reduce((n, f) => n + a.flows[f]!.sessions - (a.flows[f]!.outcomes.rejected ?? 0), 0);
    expect(a.jobs.accepted).toBe(sessionsWithJobs);
  }, 180_000);
});
