/**
 * A load-balancing endpoint's workers are billed as any worker (load/targets/in-process/worker-bills.ts
 * over the pool's lives): from start to stop, initializing not billed by default.
 */
import { describe, expect, test } from 'vitest';
import { billingRule } from '../../src/report/worker-bill.js';
import { watchWorkerBill } from '../../src/load/targets/in-process/worker-bills.js';
import { harness, KEY } from '../helpers/harness.js';

describe('billing a load-balancing endpoint', () => {
  test('one request of 2 s on a cold endpoint (cold start 10 s, idle timeout 5 s): 7 s billed, as on a queue endpoint', () => {
    const h = harness({ type: 'load-balancer', coldStartMs: 10_000, jobDurationMs: 2000 });
    const bill = watchWorkerBill(h.ep.pool, billingRule(h.ep.cfg));
    const r = h.raw({ method: 'POST', path: '/lb/ep/generate', authorization: `Bearer ${KEY}`, body: {} });
    h.at(60_000);
    expect(r.status).toBe(200);
    const b = bill(60_000);
    expect(b.workersStarted).toBe(1);
    expect(b.secondsByState).toMatchObject({ initializing: 10, running: 2, idle: 5 });
    expect(b.flexSeconds).toBe(7);
  });

  test('loadlab: with billing.initializing the cold start is billed too; two workers for two requests at once', () => {
    const h = harness({ type: 'load-balancer', coldStartMs: 10_000, jobDurationMs: 2000, billing: { initializing: true } });
    const bill = watchWorkerBill(h.ep.pool, billingRule(h.ep.cfg));
    for (let i = 0; i < 2; i++) h.raw({ method: 'POST', path: '/lb/ep/generate', authorization: `Bearer ${KEY}`, body: {} });
    h.at(60_000);
    const b = bill(60_000);
    expect(b.workersStarted).toBe(2);
    expect(b.flexSeconds).toBe(34); // 2 × (10 + 2 + 5)
  });
});
