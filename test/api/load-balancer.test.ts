/**
 * Load-balancing endpoints (`type: load-balancer`) in process, in virtual time: routing, the
 * balancer's waits and answers, affinity, crashes, scaling. Each rule names its source: "docs:"
 * (RunPod's documentation, spec/FACTS.md) or "loadlab:" (the model's own choice, docs/endpoint.md
 * "Load-balancing endpoints").
 */
import { describe, expect, it } from 'vitest';
import type { EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { harness, KEY } from '../helpers/harness.js';

const LB = { type: 'load-balancer' } as const;

function lbHarness(endpoint: Partial<EndpointConfigInput> = {}) {
  const h = harness({ ...LB, ...endpoint } as Partial<EndpointConfigInput>);
  /** A request to the endpoint's base, `/lb/ep` + path. */
  const lb = (method: string, path: string, body?: unknown, workerAffinity?: string) =>
    h.raw({ method, path: `/lb/ep${path}`, authorization: `Bearer ${KEY}`, body, ...(workerAffinity !== undefined ? { workerAffinity } : {}) });
  const worker = (r: { res: { headers?: Readonly<Record<string, string>> } | undefined }) => r.res?.headers?.['x-runpod-worker-id'];
  return { ...h, lb, worker };
}

describe('load-balancing endpoint: routing and answers', () => {
  it('loadlab: a custom route echoes the body after jobDurationMs and names its worker', () => {
    const h = lbHarness({ workersMin: 1, jobDurationMs: 1000 });
    const r = h.lb('POST', '/generate', { prompt: 'hi' });
    expect(r.res).toBeUndefined();
    h.advance(999);
    expect(r.res).toBeUndefined();
    h.advance(1);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ prompt: 'hi' });
    expect(h.worker(r)).toBe('ep-w1');
  });

  it('docs: /ping is answered by a ready worker, 200 {"status": "healthy"}', () => {
    const h = lbHarness({ workersMin: 1 });
    const r = h.lb('GET', '/ping');
    h.advance(0);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'healthy' });
    expect(h.worker(r)).toBe('ep-w1');
  });
});
