/**
 * RunPod's endpoint defaults by how the endpoint is created (`endpoint.preset`), QUEUE_DELAY's
 * minimum, and starts that never finish (`endpoint.initTimeoutMs`), observed through /status,
 * /health and worker.state events. Each test names its source: RunPod's docs as of 2026 ("docs:
 * …"), or loadlab's own decision where the docs say nothing (docs/endpoint.md says which).
 */
import { describe, expect, it } from 'vitest';
import { endpointConfig, parseSimConfig } from '../../src/contract/endpoint-config.js';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { harness } from '../helpers/harness.js';

const job = (durationMs: number) => ({ sim: { durationMs } });
const SEC = 1000;
const MIN = 60 * SEC;
type WorkerEvent = Extract<SimEvent, { type: 'worker.state' }>;
const workerEvents = (ev: SimEvent[]) => ev.filter((e): e is WorkerEvent => e.type === 'worker.state').map((e) => [e.atMs, e.workerId, e.from, e.to]);

describe('endpoint.preset', () => {
  it('docs (console): with no preset, execution timeout 600 s, idle timeout 5 s: the console defaults', () => {
    const e = endpointConfig({ id: 'ep' });
    expect([e.preset, e.executionTimeoutMs, e.idleTimeoutMs, e.flashBoot]).toEqual(['console', 600_000, 5000, undefined]);
    expect(endpointConfig({ id: 'ep', preset: 'console' })).toEqual(e);
  });

  it('docs (REST API v2 defaults: execution timeout 300 s): preset rest ends a 301 s job TIMED_OUT at 300 s', () => {
    const h = harness({ preset: 'rest' });
    const id = h.run(job(301 * SEC)).body.id;
    h.at(300 * SEC - 1);
    expect(h.status(id).body.status).toBe('IN_PROGRESS');
    h.at(300 * SEC);
    expect(h.status(id).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 300 * SEC });
  });

  it('docs (REST API v2 defaults: idle timeout 10 s): preset rest stops a worker 10 s after its job', () => {
    const h = harness({ preset: 'rest' });
    const ev = h.events();
    h.run(job(SEC));
    h.at(11 * SEC - 1);
    expect(h.req('GET', '/health').body.workers.idle).toBe(1);
    h.at(11 * SEC + 1); // it stops at the end of that ms (docs/endpoint.md)
    expect(h.req('GET', '/health').body.workers.idle).toBe(0);
    expect(workerEvents(ev).at(-1)).toEqual([11 * SEC, 'ep-w1', 'idle', 'stopped']);
  });

  it('docs (REST API v2 defaults: FlashBoot off): preset rest restarts a worker stopped a moment ago from cold', () => {
    const h = harness({ preset: 'rest', coldStartMs: 3000 });
    const first = h.run(job(SEC)).body.id;
    h.at(4 * SEC + 10 * SEC + 1); // ready at 3 s, done at 4 s, stopped 10 s later
    expect(h.req('GET', '/health').body.workers.idle).toBe(0);
    const second = h.run(job(SEC)).body.id;
    h.at(30 * SEC);
    expect(h.status(first).body.delayTime).toBe(3000);
    expect(h.status(second).body.delayTime).toBe(3000);
  });

  it('docs (explicit settings override the defaults): keys given win over preset rest, flashBoot included', () => {
    const e = endpointConfig({ id: 'ep', preset: 'rest', executionTimeoutMs: 30 * SEC, flashBoot: { startMs: 500 } });
    expect([e.executionTimeoutMs, e.idleTimeoutMs, e.flashBoot?.startMs]).toEqual([30 * SEC, 10 * SEC, 500]);
    const h = harness({ preset: 'rest', idleTimeoutMs: 2000, coldStartMs: 3000, flashBoot: { startMs: 500 } });
    const first = h.run(job(SEC)).body.id;
    h.at(6 * SEC + 1); // stopped at 4 s + 2 s
    expect(h.req('GET', '/health').body.workers.idle).toBe(0);
    const second = h.run(job(SEC)).body.id;
    h.at(10 * SEC);
    expect([h.status(first).body.delayTime, h.status(second).body.delayTime]).toEqual([3000, 500]);
  });

  it('docs (the endpoint settings of a serve config): each endpoint of a serve config takes its own preset', () => {
    const r = parseSimConfig({ endpoints: [{ id: 'a', preset: 'rest' }, { id: 'b' }, { id: 'c', preset: 'rest', idleTimeoutMs: 1 }] });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.config.endpoints.map((e) => [e.preset, e.executionTimeoutMs, e.idleTimeoutMs])).toEqual([
      ['rest', 300_000, 10_000],
      ['console', 600_000, 5000],
      ['rest', 300_000, 1],
    ]);
    const bad = parseSimConfig({ endpoints: [{ id: 'a', preset: 'cli' }] });
    expect(bad.ok ? [] : bad.issues.map((i) => i.path)).toEqual(['endpoints.0.preset']);
  });
});

describe('QUEUE_DELAY takes values from 0.5 s', () => {
  it('docs (QUEUE_DELAY from 0.5 s): value 0.5 adds a worker once a job has waited 0.5 s', () => {
    const h = harness({ workersMin: 1, workersMax: 2, coldStartMs: 10 * SEC, scaler: { type: 'QUEUE_DELAY', value: 0.5 } });
    h.at(10 * SEC); // the workersMin worker is ready
    h.run(job(60 * SEC));
    const queued = h.run(job(SEC)).body.id;
    h.at(10 * SEC + 499);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, initializing: 0 });
    h.at(10 * SEC + 500);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ running: 1, initializing: 1 });
    expect(h.status(queued).body.status).toBe('IN_QUEUE');
  });

  it('docs (QUEUE_DELAY from 0.5 s): 0.4 is a config error naming the field', () => {
    const r = parseSimConfig({ endpoints: [{ id: 'ep', scaler: { type: 'QUEUE_DELAY', value: 0.4 } }] });
    expect(r.ok ? [] : r.issues).toEqual([{ path: 'endpoints.0.scaler.value', message: "QUEUE_DELAY takes a wait of at least 0.5 s (RunPod's minimum)" }]);
    // REQUEST_COUNT's value is jobs per worker: the minimum is QUEUE_DELAY's alone.
    expect(parseSimConfig({ endpoints: [{ id: 'ep', scaler: { type: 'REQUEST_COUNT', value: 0.4 } }] }).ok).toBe(true);
  });
});

describe('endpoint.initTimeoutMs: starts that never finish', () => {
  it('docs (a worker that takes over 7 min to start is unhealthy): an 8-min cold start leaves the worker unhealthy at 7 min, its job IN_QUEUE', () => {
    const h = harness({ workersMax: 1, coldStartMs: 8 * MIN });
    const ev = h.events();
    const id = h.run(job(SEC)).body.id;
    h.at(7 * MIN - 1);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 1, unhealthy: 0 });
    h.at(7 * MIN);
    expect(h.req('GET', '/health').body).toMatchObject({
      jobs: { inQueue: 1, inProgress: 0 },
      workers: { initializing: 0, idle: 0, ready: 0, running: 0, unhealthy: 1 },
    });
    expect(workerEvents(ev)).toEqual([
      [0, 'ep-w1', 'none', 'initializing'],
      [7 * MIN, 'ep-w1', 'initializing', 'unhealthy'],
    ]);
    h.at(60 * MIN); // past the 8 min the start would have taken: still unhealthy, the job still waits
    expect(h.status(id).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(h.req('GET', '/health').body.workers.unhealthy).toBe(1);
  });

  it('docs (RUNPOD_INIT_TIMEOUT extends it): with initTimeoutMs 600000 the same start ends normally at 8 min', () => {
    const h = harness({ workersMax: 1, coldStartMs: 8 * MIN, initTimeoutMs: 10 * MIN });
    const id = h.run(job(SEC)).body.id;
    h.at(8 * MIN);
    expect(h.status(id).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 8 * MIN });
    expect(h.req('GET', '/health').body.workers.unhealthy).toBe(0);
  });

  it('decision (docs/endpoint.md): an unhealthy worker is no capacity but holds its place under workersMax; the scaler starts others in the room left', () => {
    const h = harness({ workersMax: 2, coldStartMs: 8 * MIN });
    const ev = h.events();
    const id = h.run(job(SEC)).body.id;
    h.at(7 * MIN);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 1, unhealthy: 1 });
    h.at(14 * MIN);
    expect(h.req('GET', '/health').body.workers).toMatchObject({ initializing: 0, unhealthy: 2 });
    h.at(60 * MIN);
    expect(h.status(id).body.status).toBe('IN_QUEUE');
    expect(workerEvents(ev)).toEqual([
      [0, 'ep-w1', 'none', 'initializing'],
      [7 * MIN, 'ep-w1', 'initializing', 'unhealthy'],
      [7 * MIN, 'ep-w2', 'none', 'initializing'],
      [14 * MIN, 'ep-w2', 'initializing', 'unhealthy'],
    ]);
  });

  it('decision (docs/endpoint.md): the job waits for the next start that finishes in time', () => {
    // Seed 3's uniform draws: the first start would take over 7 min, the second 138 816 ms.
    const h = harness({ workersMax: 2, coldStartMs: { dist: 'uniform', minMs: MIN, maxMs: 13 * MIN } }, { seed: 3 });
    const id = h.run(job(SEC)).body.id;
    h.at(30 * MIN);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', delayTime: 7 * MIN + 138_816, workerId: 'ep-w2' });
    expect(h.req('GET', '/health').body.workers).toMatchObject({ unhealthy: 1, idle: 0 });
  });

  it('docs (a crash-looping worker is unhealthy): the end of an unhealthy fault window does not revive a worker unhealthy from its start', () => {
    const h = harness({ workersMax: 2, coldStartMs: 8 * MIN, faults: [{ kind: 'unhealthy', workers: 1, fromMs: 0, toMs: 10 * MIN }] });
    h.run(job(SEC));
    h.at(7 * MIN);
    // The fault took the first slot; the second worker's start ran past 7 min.
    expect(h.req('GET', '/health').body.workers).toMatchObject({ unhealthy: 2, initializing: 0 });
    h.at(10 * MIN);
    // The fault's worker boots again; the other stays unhealthy.
    expect(h.req('GET', '/health').body.workers).toMatchObject({ unhealthy: 1, initializing: 1 });
  });
});
