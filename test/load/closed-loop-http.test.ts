/**
 * A closed flow over HTTP in real time, against `serve` (real clock) on 127.0.0.1: the users never
 * have more requests in flight than there are users, so with a worker per user no job ever waits
 * in the queue, and the loop's count stays within what its cycle (job + think time) allows. Wall
 * time only bounds the counts from above: a busy machine makes fewer sessions, never more.
 */
import { afterAll, expect, test } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { HttpTarget } from '../../src/load/targets/http/http-target.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

let srv: RunningServer | undefined;
afterAll(async () => srv?.close());

const USERS = 3;
const JOB_MS = 300;
const THINK_MS = 100;
const DURATION_MS = 2000;

test('3 users on 3 warm workers: at most 3 requests in flight, no job queued, at most one session per user per cycle', async () => {
  const sc = scenarioSchema.parse({
    name: 'closed-http',
    durationMs: DURATION_MS,
    drainMs: 10_000,
    endpoint: { id: 'ep', workersMin: USERS, workersMax: USERS, jobDurationMs: JOB_MS },
    traffic: [{ name: 'u', arrival: { process: 'closed', users: USERS, thinkTimeMs: THINK_MS }, client: { behaviour: 'runsync' } }],
  });
  const parsed = parseSimConfig({ seed: 1, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  srv = await startServer({ config: parsed.config, port: 0, clock: 'real' });
  const url = srv.baseUrl;
  const r = await runScenario(sc, { target: () => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep', causesReported: true }) });
  expect(r.target.kind).toBe('http');
  const f = r.flows.u!;
  expect(f.users).toBe(USERS);
  expect(f.outcomes).toEqual({ COMPLETED: f.sessions });
  // Each user starts at 0 ms and then at most once per job + think time: ceil(2000 / 400) = 5 each.
  expect(f.sessions).toBeLessThanOrEqual(USERS * Math.ceil(DURATION_MS / (JOB_MS + THINK_MS)));
  // At least one more session per user after its first, however slow the machine.
  expect(f.sessions).toBeGreaterThanOrEqual(2 * USERS);
  expect(r.headroom.operations.find((o) => o.operation === 'runsync')!.peakInFlight).toBeLessThanOrEqual(USERS);
  expect(Math.max(...r.timeline.inFlightMax)).toBeLessThanOrEqual(USERS);
  // A user sends its next job only after its last one ended: a worker is always free for it.
  expect(r.jobs.queueDelayMs.summary.max).toBe(0);
  expect(f.jobs!.turnaroundMs!.summary.min).toBeGreaterThanOrEqual(JOB_MS);
}, 60_000);
