/**
 * `serve`'s /metrics for an endpoint that lists its GPU types: `loadlab_workers_by_gpu{endpoint,
 * gpu, state}`, every (gpu, state) at 0 from the start, the workers placed on each type as /health
 * `workers.byGpu` counts them, while `loadlab_workers{endpoint, state}` keeps its labels (a worker
 * waiting for room on every type is there only). The scenario of test/api/gpu-priority.test.ts:
 * room for one H100-PRO and none on A100, two 5 s jobs at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC } from '../../src/contract/metric-names.js';
import { WORKER_STATES } from '../../src/contract/sim-events.js';
import { parseProm, select, value } from '../telemetry/prom-text.js';
import { serve, type Served } from './serve-helper.js';

let t: Served;
const scrape = async () => parseProm((await t.call('GET', '/metrics', undefined, { auth: null })).text);
const byGpu = async () =>
  Object.fromEntries(
    select(await scrape(), METRIC.workersByGpu, { endpoint: 'ep' })
      .filter((s) => s.value !== 0)
      .map((s) => [`${s.labels.gpu} ${s.labels.state}`, s.value]),
  );

beforeAll(async () => {
  t = await serve({
    gpus: ['H100-PRO', 'A100'],
    hostCapacity: { 'H100-PRO': 1, A100: 0 },
    workersMax: 2,
    coldStartMs: 1000,
    idleTimeoutMs: 1000,
    scaler: { type: 'REQUEST_COUNT', value: 1 },
  });
});
afterAll(() => t.close());

describe('/metrics of an endpoint with gpus', () => {
  it('exports every GPU type × state at 0 before any request, as a gauge', async () => {
    const m = await scrape();
    expect(m.types.get(METRIC.workersByGpu)).toBe('gauge');
    const zeros = select(m, METRIC.workersByGpu, { endpoint: 'ep' });
    expect(zeros.map((s) => `${s.labels.gpu} ${s.labels.state}`).sort()).toEqual(
      ['H100-PRO', 'A100'].flatMap((g) => WORKER_STATES.map((s) => `${g} ${s}`)).sort(),
    );
    expect(zeros.every((s) => s.value === 0)).toBe(true);
  });

  it('follows placement: one worker on H100-PRO, one waiting for a host (throttled in loadlab_workers only); withdrawn when nothing wants it', async () => {
    await t.run({ sim: { durationMs: 5000 } });
    await t.run({ sim: { durationMs: 5000 } });
    await t.advance(1);
    expect(await byGpu()).toEqual({ 'H100-PRO initializing': 1 });
    const m = await scrape();
    expect(value(m, METRIC.workers, { endpoint: 'ep', state: 'throttled' })).toBe(1);
    expect(value(m, METRIC.workers, { endpoint: 'ep', state: 'initializing' })).toBe(1);
    await t.advance(2000);
    expect(await byGpu()).toEqual({ 'H100-PRO running': 1 });
    // The H100-PRO worker takes the second job at 6 s: REQUEST_COUNT's target falls to 1 and the waiting worker is withdrawn.
    await t.advance(4500);
    expect(await byGpu()).toEqual({ 'H100-PRO running': 1 });
    expect(value(await scrape(), METRIC.workers, { endpoint: 'ep', state: 'throttled' })).toBe(0);
    expect((await t.call('GET', '/health')).body.workers).toMatchObject({ running: 1, throttled: 0 });
  });
});

describe('/metrics of an endpoint without gpus', () => {
  it('has no loadlab_workers_by_gpu family', async () => {
    const u = await serve({});
    try {
      const m = parseProm((await u.call('GET', '/metrics', undefined, { auth: null })).text);
      expect(m.types.has(METRIC.workersByGpu)).toBe(false);
      expect(m.types.get(METRIC.workers)).toBe('gauge');
    } finally {
      await u.close();
    }
  });
});
