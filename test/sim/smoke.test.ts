import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

describe('smoke', () => {
  it('runs a job through its life', () => {
    const h = harness({ jobDurationMs: 1000 });
    const r = h.run({ a: 1 });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('IN_QUEUE');
    const id = r.body.id;
    expect(h.status(id).body).toMatchObject({ id, status: 'IN_PROGRESS', delayTime: 0 });
    h.advance(1000);
    expect(h.status(id).body).toEqual({ id, status: 'COMPLETED', delayTime: 0, executionTime: 1000, workerId: 'ep-w1', output: { a: 1 } });
  });
});
