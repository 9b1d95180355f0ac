/**
 * The reference model alone on load-balancing endpoints (model-balancer.ts), against the rules
 * written out by hand (docs/endpoint.md "Load-balancing endpoints"): the differential test holds
 * the core to the model, this holds the model to the rules.
 */
import { describe, expect, it } from 'vitest';
import { modelConfig, requestsOf, type CaseConfig, type Cmd } from './case.js';
import { RefModel } from './model.js';
import { LB_REGRESSIONS } from './regressions-lb.js';

/** Runs the commands on the model: every answer (at once or later) by request number, and /health's at each health request. */
function replay(config: CaseConfig, cmds: Cmd[]) {
  const m = new RefModel(modelConfig(config));
  const answers: Record<number, { atMs: number; status: number; body: unknown }> = {};
  const health: Record<string, unknown>[] = [];
  let n = 0;
  for (const cmd of cmds) {
    if (cmd.t === 'advance') m.advance(cmd.ms);
    for (const r of requestsOf(cmd, m.jobs.length)) {
      const a = m.request(r, n);
      if (r.op === 'health') health.push(a!.body);
      else if (a) answers[n] = { atMs: m.nowMs, ...a };
      n++;
    }
  }
  for (const l of m.late) answers[l.req] = { atMs: l.atMs, status: l.status, body: l.body };
  return { answers, health };
}

const LB = { type: 'load-balancer' as const, seed: 1 };
const byName = (name: string) => LB_REGRESSIONS.find((r) => r.name === name)!;
const echo = (ms: number, worker: string) => ({ status: 200, body: { answer: { sim: { durationMs: ms } }, worker } });

describe('reference model: load-balancing endpoints', () => {
  it('2 min in the shared wait: 503 at 120 000 ms exactly; a request running 5.5 min: 504 at 330 000 ms', () => {
    const { answers, health } = replay({ ...LB, workers: 1, workersMin: 1 }, [
      { t: 'lb', sim: { durationMs: 400_000 } },
      { t: 'lb', sim: { durationMs: 0 } },
      { t: 'advance', ms: 400_000 },
      { t: 'health' },
    ]);
    expect(answers[0]).toEqual({ atMs: 330_000, status: 504, body: { answer: { error: 'request timed out after 330000 ms' }, worker: 'ep-w1' } });
    expect(answers[1]).toEqual({ atMs: 120_000, status: 503, body: { answer: { error: 'no workers available' } } });
    expect(health[0]!.balancer).toMatchObject({ failed: { 'no-workers': 1, timeout: 1 }, requests: { pending: 0, inFlight: 0 } });
  });

  it('a crash drops every request of the worker (502), which restarts; no retry', () => {
    const { answers, health } = replay({ ...LB, workers: 1, workersMin: 1, workerConcurrency: 2 }, [
      { t: 'lb', sim: { durationMs: 10_000 } },
      { t: 'lb', sim: { durationMs: 2000, crash: true } },
      { t: 'advance', ms: 1000 },
      { t: 'health' },
    ]);
    const dropped = { atMs: 1000, status: 502, body: { answer: { error: 'worker dropped the request' }, worker: 'ep-w1' } };
    expect([answers[0], answers[1]]).toEqual([dropped, dropped]);
    expect(health[0]).toMatchObject({ jobs: { failed: 2, retried: 0 }, workers: { idle: 1 }, balancer: { failed: { dropped: 2 } } });
  });

  it('strict waits for its worker alone though another is idle, 400 worker_timeout at 5 min; soft goes elsewhere; a gone worker is 404 at once', () => {
    const { answers } = replay({ ...LB, workers: 2, workersMin: 2 }, [
      { t: 'lb', sim: { durationMs: 320_000 } },
      { t: 'lb', sim: { durationMs: 0 }, affinity: { mode: 'strict', worker: 2 } },
      { t: 'lb', sim: { durationMs: 0 }, affinity: { mode: 'soft', worker: 2 } },
      { t: 'lb', sim: { durationMs: 0 }, affinity: { mode: 'strict', worker: 3 } },
      { t: 'advance', ms: 300_000 },
    ]);
    expect(answers[1]).toEqual({ atMs: 300_000, status: 400, body: { answer: { error: 'worker_timeout' } } });
    expect(answers[2]).toEqual({ atMs: 0, ...echo(0, 'ep-w1') });
    expect(answers[3]).toEqual({ atMs: 0, status: 404, body: { answer: { error: 'affinity_worker_gone' } } });
  });

  it('strict-resume with no cold start: the woken worker serves its request at once, the shared wait waits on', () => {
    const c = byName('strict-resume with no cold start: the worker it wakes serves it before the shared wait');
    const { answers } = replay(c.config, c.cmds);
    expect(answers[1]).toEqual({ atMs: 11_001, ...echo(10_000, 'ep-w2') });
    expect(answers[3]).toEqual({ atMs: 11_001, ...echo(10_000, 'ep-w1') });
    expect(answers[2]).toEqual({ atMs: 21_001, ...echo(10_000, 'ep-w2') });
  });

  it('strict to a worker waiting for a GPU place: it waits pinned, then 404 affinity_worker_gone when the worker is withdrawn', () => {
    const c = byName('a strict request waiting for a worker that waits for a GPU place ends affinity_worker_gone when that worker is withdrawn');
    const { answers, health } = replay(c.config, c.cmds);
    expect(health[0]).toMatchObject({ workers: { running: 1, throttled: 1 }, balancer: { requests: { pending: 2, inFlight: 1 } } });
    expect(answers[2]).toEqual({ atMs: 10_000, status: 404, body: { answer: { error: 'affinity_worker_gone' } } });
    expect(health[1]).toMatchObject({ workers: { running: 1, throttled: 0 }, balancer: { failed: { 'worker-gone': 1 } } });
  });

  it('idle timers: a worker idle above the REQUEST_COUNT target stops at its timeout; one the target kept, in the ms the target falls', () => {
    const run = (name: string) => replay(byName(name).config, byName(name).cmds);
    const a = run('an idle worker above the REQUEST_COUNT target stops at its idle timeout, not at once');
    expect(a.health[0]!.workers).toMatchObject({ idle: 1, running: 1 });
    expect(a.health[1]!.workers).toMatchObject({ idle: 0, running: 1 });
    const b = run('a worker idle past its timeout while the target wanted it stops in the ms the target falls');
    expect(b.health[0]!.workers).toMatchObject({ idle: 1, running: 1 });
    expect(b.health[1]!.workers).toMatchObject({ idle: 0, running: 1 });
  });
});
