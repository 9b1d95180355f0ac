/**
 * A grid point on the other kind of endpoint than the scenario's (grid-type.ts): the keys whose
 * defaults differ between the kinds, as docs/plan.md "Queue or load-balancing endpoint" tells them.
 */
import { describe, expect, test } from 'vitest';
import { endpointSchema } from '../../src/contract/endpoint-config.js';
import { withPresetDefaults } from '../../src/contract/endpoint-presets.js';
import { withKnobs } from '../../src/plan/grid.js';
import type { Scenario } from '../../src/load/scenario/schema.js';

/** An endpoint as a scenario loads it: its preset and kind's defaults filled in. */
const loaded = (raw: Record<string, unknown>) => endpointSchema.parse(withPresetDefaults({ id: 'ep', ...raw })) as Scenario['endpoint'];
const at = (raw: Record<string, unknown>, knobs: Record<string, string | number>) => endpointSchema.parse(withKnobs(loaded(raw), knobs));

describe('a queue scenario on a load-balancing point', () => {
  test("the preset's execution timeout is the kind's 330000 ms; one given is kept, at most 330000", () => {
    expect(at({}, { type: 'load-balancer' }).executionTimeoutMs).toBe(330_000);
    expect(at({ preset: 'rest' }, { type: 'load-balancer' }).executionTimeoutMs).toBe(330_000);
    expect(at({ executionTimeoutMs: 120_000 }, { type: 'load-balancer' }).executionTimeoutMs).toBe(120_000);
    expect(at({ executionTimeoutMs: 900_000 }, { type: 'load-balancer' }).executionTimeoutMs).toBe(330_000);
  });
  test('QUEUE_DELAY becomes REQUEST_COUNT at the point’s workerConcurrency; REQUEST_COUNT is kept', () => {
    expect(at({ workerConcurrency: 4 }, { type: 'load-balancer' }).scaler).toEqual({ type: 'REQUEST_COUNT', value: 4 });
    expect(at({ workerConcurrency: 4 }, { type: 'load-balancer', workerConcurrency: 16 }).scaler).toEqual({ type: 'REQUEST_COUNT', value: 16 });
    expect(at({ scaler: { type: 'REQUEST_COUNT', value: 2 } }, { type: 'load-balancer' }).scaler).toEqual({ type: 'REQUEST_COUNT', value: 2 });
  });
});

describe('a load-balancing scenario on a queue point', () => {
  test("the kind's 330000 ms is the preset's on a queue endpoint; one given is kept; so is the REQUEST_COUNT scaler", () => {
    const q = at({ type: 'load-balancer', workerConcurrency: 4 }, { type: 'queue' });
    expect(q).toMatchObject({ type: 'queue', executionTimeoutMs: 600_000, scaler: { type: 'REQUEST_COUNT', value: 4 } });
    expect(at({ type: 'load-balancer', preset: 'rest' }, { type: 'queue' }).executionTimeoutMs).toBe(300_000);
    expect(at({ type: 'load-balancer', executionTimeoutMs: 60_000 }, { type: 'queue' }).executionTimeoutMs).toBe(60_000);
  });
  test('a point of the scenario’s own kind is the scenario’s endpoint', () => {
    const e = loaded({ executionTimeoutMs: 900_000 });
    expect(withKnobs(e, { type: 'queue' })).toEqual({ ...e });
  });
});
