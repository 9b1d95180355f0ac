/**
 * Spec §2 / §8.6 over real HTTP in manual time: the default `policy.ttl` (86 400 000 ms from
 * submission, a hard delete) removes a job that is alone on its endpoint, queued or running.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../server/serve-helper.js';

const DAY = 86_400_000;

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('default policy.ttl (spec §2: 24 h from submission, hard delete)', () => {
  it('a lone queued /run job: IN_QUEUE at 24 h - 1 ms, 404 at 24 h + 1 ms and at 48 h', async () => {
    t = await serve({ workersMax: 0 });
    const id = (await t.run({ n: 1 })).body.id;
    expect(await t.advance(DAY - 1)).toBe(DAY - 1);
    expect((await t.status(id)).body).toEqual({ id, status: 'IN_QUEUE' });
    expect(await t.advance(2)).toBe(DAY + 1);
    const gone = await t.status(id);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('API_ERR_JOB_NOT_FOUND');
    expect((await t.call('GET', '/health')).body.jobs).toMatchObject({ inQueue: 0 });
    await t.advance(DAY);
    expect((await t.status(id)).status).toBe(404);
  });

  it('a lone running job (48 h run, 48 h execution timeout): IN_PROGRESS at 24 h - 1 ms, 404 at 24 h + 1 ms', async () => {
    t = await serve();
    const id = (await t.run({ sim: { durationMs: 2 * DAY } }, { policy: { executionTimeout: 2 * DAY } })).body.id;
    await t.advance(DAY - 1);
    expect((await t.status(id)).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, executionTime: DAY - 1, workerId: 'ep-w1' });
    await t.advance(2);
    expect((await t.status(id)).status).toBe(404);
    expect((await t.call('GET', '/health')).body.workers).toMatchObject({ running: 0 });
  });
});
