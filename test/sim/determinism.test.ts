/**
 * Determinism (DESIGN "Time, randomness, determinism"): golden values pin the random algorithm
 * (seedrandom's Alea) and the id format, so a change of either is caught here rather than as
 * drifting reports; named streams are independent; a whole mixed run replays exactly.
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig, type EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { sampler } from '../../src/sampling/registry.js';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { RandomSource } from '../../src/lib/random.js';
import { Simulator } from '../../src/sim/simulator.js';
import { harness } from '../helpers/harness.js';

describe('golden values (seed 1)', () => {
  it('pins the first job ids, /runsync ones with their sync- prefix', () => {
    const h = harness();
    const ids: string[] = [];
    h.sim.bus.on((e) => e.type === 'job.accepted' && ids.push(e.jobId));
    expect(h.run({}).body.id).toBe('8a2e6a56-2e4b-4db2-a51b-cd35db7ba9f1-u1');
    h.req('POST', '/runsync', { input: {} });
    expect(h.run({}).body.id).toBe('cbed51c2-79c7-403b-b4d7-02e6db7ba9f3-u1');
    expect(ids).toEqual(['8a2e6a56-2e4b-4db2-a51b-cd35db7ba9f1-u1', 'sync-3d00fa7d-602d-45fd-96c4-247fdb7ba9f0-u1', 'cbed51c2-79c7-403b-b4d7-02e6db7ba9f3-u1']);
  });

  it('pins the first draws of a named stream (Alea)', () => {
    const r = new RandomSource(1).stream('arrivals');
    expect([r.next(), r.next(), r.next(), r.int32()]).toEqual([0.040297543397173285, 0.3183343056589365, 0.4461775596719235, -370420880]);
  });

  it("ids look like the real service's: a v4 UUID and a -u1 suffix", () => {
    const h = harness();
    for (let i = 0; i < 50; i++) {
      expect(h.run({}).body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-u1$/);
    }
  });
});

describe('random streams', () => {
  it('the same seed and name give the same sequence; another seed or name another', () => {
    const first = (seed: number | string, name: string) => {
      const r = new RandomSource(seed).stream(name);
      return [r.next(), r.next(), r.next()];
    };
    expect(first(1, 'service')).toEqual(first(1, 'service'));
    expect(first('1', 'service')).toEqual(first(1, 'service')); // the seed is used as text
    expect(first(2, 'service')).not.toEqual(first(1, 'service'));
    expect(first(1, 'failures')).not.toEqual(first(1, 'service'));
  });

  it('a draw in one stream never shifts another', () => {
    const quiet = new RandomSource(9);
    const busy = new RandomSource(9);
    const noisy = busy.stream('coldstart');
    for (let i = 0; i < 1000; i++) noisy.next();
    const a = quiet.stream('service');
    const b = busy.stream('service');
    for (let i = 0; i < 100; i++) expect(b.next()).toBe(a.next());
    expect(busy.stream('service')).toBe(b); // one stream object per name
  });
});

/** A mixed workload on one endpoint, optionally with a second endpoint getting its own traffic. */
function mixedRun(seed: number, withNeighbour: boolean) {
  const ep: EndpointConfigInput = {
    id: 'ep',
    workersMax: 3,
    coldStartMs: { dist: 'lognormal', medianMs: 800, p95Ms: 3000 },
    idleTimeoutMs: 2000,
    jobDurationMs: { dist: 'exponential', meanMs: 1500 },
    workload: { failureProbability: 0.2, chunks: 1 },
    scaler: { type: 'QUEUE_DELAY', value: 1 },
  };
  const endpoints = withNeighbour ? [ep, { id: 'other', jobDurationMs: { dist: 'uniform', minMs: 10, maxMs: 5000 } }] : [ep];
  const parsed = parseSimConfig({ seed, endpoints });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const sim = new Simulator(parsed.config);
  const events: SimEvent[] = [];
  sim.bus.on((e) => events.push(e));
  const arrivals = sim.random.stream('arrivals');
  const gap = sampler({ dist: 'exponential', meanMs: 700 }, arrivals);
  let n = 0;
  const arrive = () => {
    const e = sim.endpoints.get('ep')!;
    e.submit({ kind: 'run', id: sim.newJobId(false), input: { n }, lowPriority: n % 7 === 0, directives: n % 11 === 0 ? { crash: true } : undefined });
    if (withNeighbour) sim.endpoints.get('other')!.submit({ kind: 'run', id: sim.newJobId(false), input: {} });
    if (++n < 400) sim.sched.after(gap(), arrive);
  };
  sim.sched.at(0, arrive);
  sim.runUntil(3_600_000);
  return events;
}

describe('replay', () => {
  it('a mixed run (cold starts, failures, crashes, scaling) replays event for event with the same seed', () => {
    const a = mixedRun(5, false);
    expect(a.filter((e) => e.type === 'job.finished').length).toBe(400);
    expect(JSON.stringify(mixedRun(5, false))).toBe(JSON.stringify(a));
    expect(JSON.stringify(mixedRun(6, false))).not.toBe(JSON.stringify(a));
  });

  it("another endpoint's traffic does not change this endpoint's service times or cold starts", () => {
    const times = (events: SimEvent[]) =>
      events.flatMap((e) => (e.type === 'job.finished' && e.endpointId === 'ep' ? [[e.status, e.executionTimeMs, e.delayTimeMs]] : []));
    const alone = mixedRun(5, false);
    const shared = mixedRun(5, true);
    expect(shared.some((e) => e.endpointId === 'other')).toBe(true);
    expect(times(shared)).toEqual(times(alone));
  });
});
