/**
 * Over real HTTP in manual time: with REQUEST_COUNT (value 1), a worker that went idle at the ms
 * the clock was advanced to is still there for a `/run` of that ms; idle workers above the target
 * stop at the end of the ms (docs/api.md, "Scaling").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../server/serve-helper.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('REQUEST_COUNT over HTTP', () => {
  it('a /run in the ms a job ended takes the freed worker: one worker start for ten back-to-back jobs', async () => {
    t = await serve({ workersMax: 5, coldStartMs: 2000, jobDurationMs: 500, scaler: { type: 'REQUEST_COUNT', value: 1 } });
    const ids: string[] = [];
    ids.push((await t.run({ n: 0 })).body.id);
    await t.advance(2500); // cold start, then the first run ends at 2 500
    for (let n = 1; n < 10; n++) {
      const r = await t.run({ n });
      ids.push(r.body.id);
      const s = (await t.status(r.body.id)).body;
      expect(s).toMatchObject({ status: 'IN_PROGRESS', delayTime: 0, workerId: 'ep-w1' });
      await t.advance(500);
    }
    // The last job ended at 7 000; the clock stands at 7 000, so its worker is still idle.
    expect((await t.call('GET', '/health')).body.workers).toMatchObject({ idle: 1, running: 0, initializing: 0 });
    await t.advance(1);
    expect((await t.call('GET', '/health')).body.workers).toMatchObject({ idle: 0, running: 0, initializing: 0 });
    for (const id of ids) expect((await t.status(id)).body).toMatchObject({ status: 'COMPLETED', workerId: 'ep-w1' });
    // One worker in all: the next start is numbered 2.
    const next = (await t.run()).body.id;
    await t.advance(2000);
    expect((await t.status(next)).body).toMatchObject({ status: 'IN_PROGRESS', delayTime: 2000, workerId: 'ep-w2' });
  });
});
