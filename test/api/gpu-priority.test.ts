/**
 * GPU types in priority order (`endpoint.gpus`, up to 3) and the simulated hosts' room per type
 * (`hostCapacity`), seen through /health and worker.state events. docs (RunPod, 2026): "an
 * endpoint lists up to 3 GPU types in priority order; when the first has no capacity its workers
 * are throttled and start on the next type that has some". Where the docs say nothing (a worker
 * waiting for room on every type, and when it is withdrawn), the test names loadlab's
 * decision (docs/endpoint.md "GPU types").
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { harness } from '../helpers/harness.js';

const job = (durationMs: number) => ({ sim: { durationMs } });
const SEC = 1000;
const zero = { idle: 0, initializing: 0, running: 0, throttled: 0, unhealthy: 0 };

describe('endpoint.gpus and hostCapacity', () => {
  it('docs (priority order): two jobs at once with room for one H100-PRO start one worker on H100-PRO and one on A100', () => {
    const h = harness({ gpus: ['H100-PRO', 'A100'], hostCapacity: { 'H100-PRO': 1 }, coldStartMs: 10 * SEC, scaler: { type: 'REQUEST_COUNT', value: 1 } });
    h.run(job(2 * SEC));
    h.run(job(2 * SEC));
    h.at(1);
    const w = h.req('GET', '/health').body.workers;
    expect(w).toMatchObject({ initializing: 2, throttled: 0 });
    expect(w.byGpu).toEqual({ 'H100-PRO': { ...zero, initializing: 1 }, A100: { ...zero, initializing: 1 } });
    h.at(11 * SEC);
    expect(h.req('GET', '/health').body.workers.byGpu).toEqual({ 'H100-PRO': { ...zero, running: 1 }, A100: { ...zero, running: 1 } });
  });

  it('docs (no capacity on any type: throttled); loadlab: a waiting worker is withdrawn, unplaced, once nothing wants it', () => {
    const h = harness({
      gpus: ['H100-PRO', 'A100'],
      hostCapacity: { 'H100-PRO': 1, A100: 0 },
      workersMax: 2,
      idleTimeoutMs: 1000,
      scaler: { type: 'REQUEST_COUNT', value: 1 },
    });
    const ev = h.events();
    const a = h.run(job(5 * SEC)).body.id;
    const b = h.run(job(5 * SEC)).body.id;
    h.at(1);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, throttled: 1, byGpu: { 'H100-PRO': { ...zero, running: 1 }, A100: zero } });
    // The H100-PRO worker runs a, then b (queued) from 5 s: REQUEST_COUNT's target falls to 1 and
    // the waiting worker is withdrawn at the end of that ms; it never had a place or a cold start.
    h.at(20 * SEC);
    expect(h.status(a).body).toMatchObject({ status: 'COMPLETED', executionTime: 5 * SEC });
    expect(h.status(b).body).toMatchObject({ status: 'COMPLETED', executionTime: 5 * SEC, delayTime: 5 * SEC, workerId: 'ep-w1' });
    const w2 = ev.filter((e) => e.type === 'worker.state' && e.workerId === 'ep-w2').map((e) => (e.type === 'worker.state' ? [e.atMs, e.from, e.to] : []));
    expect(w2[0]).toEqual([0, 'none', 'throttled']);
    expect(w2.slice(1)).toEqual([[5 * SEC, 'throttled', 'stopped']]);
  });

  it('loadlab: a purge that leaves REQUEST_COUNT wanting fewer workers withdraws the waiting one at the end of that ms', () => {
    const h = harness({ gpus: ['H100-PRO'], hostCapacity: { 'H100-PRO': 1 }, workersMax: 2, scaler: { type: 'REQUEST_COUNT', value: 1 } });
    const ev = h.events();
    h.run(job(10 * SEC));
    h.run(job(10 * SEC));
    h.at(1);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, throttled: 1 });
    expect(h.req('POST', '/purge-queue').body.removed).toBe(1);
    h.at(2);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, throttled: 0 });
    const w2 = ev.filter((e) => e.type === 'worker.state' && e.workerId === 'ep-w2').map((e) => (e.type === 'worker.state' ? [e.atMs, e.to] : []));
    expect(w2).toEqual([
      [0, 'throttled'],
      [1, 'stopped'],
    ]);
  });

  it('no gpus: /health has no byGpu, and nothing is throttled for want of a host', () => {
    const h = harness({ workersMax: 5, scaler: { type: 'REQUEST_COUNT', value: 1 } });
    for (let i = 0; i < 5; i++) h.run(job(SEC));
    h.at(1);
    const w = h.req('GET', '/health').body.workers;
    expect(w.byGpu).toBeUndefined();
    expect(w).toMatchObject({ running: 5, throttled: 0 });
  });

  it('refuses: more than 3 types, a type twice, hostCapacity or llm.engine.byGpu naming a type not in gpus', () => {
    const issues = (e: object) => {
      const r = parseSimConfig({ endpoints: [{ id: 'ep', ...e }] });
      return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
    };
    expect(issues({ gpus: ['A', 'B', 'C', 'D'] })[0]).toMatch(/^endpoints\.0\.gpus: /);
    expect(issues({ gpus: ['A100', 'A100'] })).toEqual(['endpoints.0.gpus.1: "A100" is listed twice']);
    expect(issues({ gpus: ['A100'], hostCapacity: { L4: 1 } })).toEqual(['endpoints.0.hostCapacity.L4: not one of gpus (A100)']);
    expect(issues({ hostCapacity: { L4: 1 } })).toEqual(['endpoints.0.hostCapacity.L4: not a GPU type of gpus, which is not set']);
    expect(issues({ gpus: ['A100'], llm: { engine: { decodeMs: 5, byGpu: { L4: { decodeMs: 9 } } }, outputTokens: 8 } })).toEqual([
      'endpoints.0.llm.engine.byGpu.L4: not one of gpus (A100)',
    ]);
    expect(issues({ gpus: ['A 100'] })[0]).toMatch(/^endpoints\.0\.gpus\.0: /);
  });
});
