/**
 * Whole-API invariants over a mixed random workload driven through the in-process API (fixed
 * seeds, bounded in count): a seed fully determines every answer and event; every accepted job is
 * accounted for; /health counters match the domain events; no 10 s window holds more accepted
 * requests of one operation than its limit.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { harness } from '../helpers/harness.js';

/** A small xorshift stream so the workload itself does not depend on the simulator's streams. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

function drive(simSeed: number, workloadSeed = 99) {
  const h = harness(
    {
      workersMax: 4,
      coldStartMs: { dist: 'lognormal', medianMs: 800, p95Ms: 3000 },
      jobDurationMs: { dist: 'exponential', meanMs: 1500 },
      workload: { failureProbability: 0.1 },
      limits: { operations: { run: { rate: 40 }, cancel: { rate: 5 } } },
    },
    { seed: simSeed },
  );
  h.webhooks((d) => ({ httpStatus: d.jobId.charCodeAt(0) % 3 === 0 ? 500 : 200 }));
  const ev = h.events();
  const answers: unknown[] = [];
  const ids: string[] = [];
  const r = rng(workloadSeed);
  for (let t = 0; t < 120_000; t += 50 + Math.floor(r() * 400)) {
    h.at(t);
    const u = r();
    if (u < 0.55) {
      const sim: Record<string, unknown> = {};
      if (r() < 0.1) sim.crash = true;
      if (r() < 0.1) sim.durationMs = Math.floor(r() * 20_000);
      const policy: Record<string, unknown> = {};
      if (r() < 0.1) policy.ttl = 10_000 + Math.floor(r() * 30_000);
      if (r() < 0.1) policy.lowPriority = true;
      if (r() < 0.1) policy.executionTimeout = 6000;
      const res = h.run({ sim }, { policy, ...(r() < 0.3 ? { webhook: 'http://127.0.0.1:1/h' } : {}) });
      answers.push([t, res.status, res.body]);
      if (res.status === 200) ids.push(res.body.id);
    } else if (u < 0.65 && ids.length) {
      const id = ids[Math.floor(r() * ids.length)]!;
      const res = h.req('POST', `/cancel/${id}`);
      answers.push([t, res.status, res.body]);
    } else if (u < 0.75 && ids.length) {
      const id = ids[Math.floor(r() * ids.length)]!;
      const res = h.req('POST', `/retry/${id}`);
      answers.push([t, res.status, res.body]);
    } else if (u < 0.77) {
      answers.push([t, h.req('POST', '/purge-queue').body]);
    } else {
      answers.push([t, h.req('GET', '/health').body]);
    }
  }
  h.at(200_000);
  return { h, ev, answers, ids };
}

describe('determinism and accounting', () => {
  it('the same seed gives identical answers and events; another seed does not', () => {
    const a = drive(5);
    const b = drive(5);
    expect(JSON.stringify(b.answers)).toBe(JSON.stringify(a.answers));
    expect(JSON.stringify(b.ev)).toBe(JSON.stringify(a.ev));
    expect(a.ev.length).toBeGreaterThan(500);
    const c = drive(6);
    expect(JSON.stringify(c.ev)).not.toBe(JSON.stringify(a.ev));
  });

  it('every accepted job is terminal, expired, purged or still live', () => {
    const { h, ev, ids } = drive(11);
    const expired = new Set(ev.filter((e) => e.type === 'job.expired').map((e) => e.jobId));
    const purged = new Set(ev.filter((e) => e.type === 'job.purged').map((e) => e.jobId));
    const accepted = ev.filter((e) => e.type === 'job.accepted').map((e) => e.jobId);
    expect(accepted).toEqual(ids);
    for (const id of ids) {
      const live = h.ep.jobs.get(id);
      const accounted = (live !== undefined) !== (expired.has(id) || purged.has(id));
      expect(accounted, id).toBe(true);
    }
    expect(purged.size + expired.size).toBeGreaterThan(0);
  });

  it('/health counters match the job.finished and job.requeued events', () => {
    const { h, ev } = drive(12);
    const finished = ev.filter((e): e is Extract<SimEvent, { type: 'job.finished' }> => e.type === 'job.finished');
    const health = h.req('GET', '/health').body;
    expect(health.jobs.completed).toBe(finished.filter((e) => e.status === 'COMPLETED').length);
    expect(health.jobs.failed).toBe(finished.filter((e) => e.status === 'FAILED' || e.status === 'TIMED_OUT').length);
    expect(health.jobs.retried).toBe(ev.filter((e) => e.type === 'job.requeued').length);
    expect(health.jobs.completed).toBeGreaterThan(50);
    expect(health.jobs.failed).toBeGreaterThan(0);
    expect(health.jobs.retried).toBeGreaterThan(0);
  });

  it('no 10 s window holds more accepted /run requests than the limit (40)', () => {
    const { ev } = drive(13);
    const times = ev.filter((e) => e.type === 'job.accepted').map((e) => e.atMs);
    let lo = 0;
    for (let hi = 0; hi < times.length; hi++) {
      while (times[lo]! <= times[hi]! - 10_000) lo++;
      expect(hi - lo + 1).toBeLessThanOrEqual(40);
    }
    expect(ev.some((e) => e.type === 'request.limited' && e.cause === 'rate')).toBe(true);
  });
});
