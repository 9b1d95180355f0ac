import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from './serve-helper.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('serve over HTTP', () => {
  it('runs a job through its life in manual time', async () => {
    t = await serve({ jobDurationMs: 1000 });
    const r = await t.run({ a: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.stringMatching(/-u1$/), status: 'IN_QUEUE' });
    expect((await t.status(r.body.id)).body).toMatchObject({ status: 'IN_PROGRESS' });
    expect(await t.advance(1000)).toBe(1000);
    expect((await t.status(r.body.id)).body).toEqual({
      id: r.body.id,
      status: 'COMPLETED',
      delayTime: 0,
      executionTime: 1000,
      workerId: 'ep-w1',
      output: { a: 1 },
    });
    expect(await t.now()).toBe(1000);
  });
});
