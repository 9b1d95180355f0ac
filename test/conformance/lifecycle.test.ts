/** Spec §3, §8.4–8.6 over real HTTP in manual time: retention, ttl, priorities, crashes, determinism. */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../server/serve-helper.js';
import { until } from './wait.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('result retention (spec §8.4)', () => {
  it('a /run result lives 30 min after completion, then /status is 404 and /retry is refused', async () => {
    t = await serve({ jobDurationMs: 1000 });
    const id = (await t.run({ sim: { fail: 'boom' } })).body.id;
    await t.advance(1000);
    expect((await t.status(id)).body).toMatchObject({ status: 'FAILED', error: 'boom' });
    await t.advance(1_800_000 - 1);
    expect((await t.status(id)).status).toBe(200);
    await t.advance(1);
    expect((await t.status(id)).body.code).toBe('API_ERR_JOB_NOT_FOUND');
    expect((await t.call('POST', `/retry/${id}`)).status).toBe(404);
  });

  it('a /runsync result lives 60 s after completion', async () => {
    t = await serve({ jobDurationMs: 1000 });
    const held = t.call('POST', '/runsync', { input: { a: 1 } });
    await until(() => t!.s.sim.endpoints.get('ep')!.jobs.size === 1, 'runsync accepted');
    await t.advance(1000);
    const id = (await held).body.id;
    expect((await held).body.status).toBe('COMPLETED');
    await t.advance(59_999);
    expect((await t.status(id)).status).toBe(200);
    await t.advance(1);
    expect((await t.status(id)).status).toBe(404);
  });

  it('/status?ttl= drops a finished result earlier; it never extends retention', async () => {
    t = await serve({ jobDurationMs: 1000 });
    const id = (await t.run()).body.id;
    await t.advance(1000);
    expect((await t.status(id, '?ttl=5000')).status).toBe(200);
    await t.advance(4999);
    expect((await t.status(id, '?ttl=99999999')).status).toBe(200); // longer: ignored
    await t.advance(1);
    expect((await t.status(id)).status).toBe(404);
    expect((await t.status(id, '?ttl=abc')).body.field).toBe('ttl');
  });
});

describe('policy (spec §2)', () => {
  it('policy.ttl counts from submission and removes even a running job', async () => {
    t = await serve({ jobDurationMs: 60_000 });
    const id = (await t.run({}, { policy: { ttl: 10_000 } })).body.id;
    await t.advance(9_999);
    expect((await t.status(id)).body.status).toBe('IN_PROGRESS');
    await t.advance(1);
    expect((await t.status(id)).status).toBe(404);
    expect((await t.call('GET', '/health')).body.workers).toMatchObject({ running: 0 });
  });

  it('policy.executionTimeout ends a long job TIMED_OUT', async () => {
    t = await serve({ jobDurationMs: 60_000 });
    const id = (await t.run({}, { policy: { executionTimeout: 6000 } })).body.id;
    await t.advance(6000);
    expect((await t.status(id)).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 6000 });
  });

  it('lowPriority jobs run only when no normal job waits', async () => {
    t = await serve({ jobDurationMs: 1000, workersMin: 1, workersMax: 1 });
    await t.advance(0);
    const a = (await t.run({ n: 'a' })).body.id;
    const low = (await t.run({ n: 'low' }, { policy: { lowPriority: true } })).body.id;
    const b = (await t.run({ n: 'b' })).body.id;
    await t.advance(3000);
    const delay = async (id: string) => (await t!.status(id)).body.delayTime;
    expect([await delay(a), await delay(b), await delay(low)]).toEqual([0, 1000, 2000]);
  });
});

describe('worker crash (CONTRACT §3)', () => {
  it('a crashed job goes back to the queue, is counted in retried, and the re-run completes', async () => {
    t = await serve({ workersMin: 1, workersMax: 1 });
    await t.advance(0);
    const id = (await t.run({ sim: { crash: true, durationMs: 2000 } })).body.id;
    await t.advance(1000); // dies half-way
    const mid = (await t.status(id)).body;
    expect(mid).toMatchObject({ status: expect.stringMatching(/IN_QUEUE|IN_PROGRESS/), retries: 1 });
    expect((await t.call('GET', '/health')).body.jobs.retried).toBe(1);
    await t.advance(60_000);
    const end = (await t.status(id)).body;
    expect(end).toMatchObject({ status: 'COMPLETED', executionTime: 2000, retries: 1 });
  });
});

describe('determinism (one seed, two fresh servers)', () => {
  async function script(seed: number): Promise<unknown[]> {
    const s = await serve({ jobDurationMs: { dist: 'lognormal', medianMs: 800, p95Ms: 3000 }, workersMax: 2 }, { seed });
    try {
      const out: unknown[] = [];
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await s.run({ i });
        ids.push(r.body.id);
        out.push(r.body);
        await s.advance(300);
      }
      await s.advance(5000);
      for (const id of ids) out.push((await s.status(id)).body);
      out.push((await s.call('GET', '/health')).body);
      return out;
    } finally {
      await s.close();
    }
  }

  it('gives the same ids and bodies, byte for byte; another seed differs', async () => {
    const a = await script(7);
    const b = await script(7);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = await script(8);
    expect((c[0] as { id: string }).id).not.toBe((a[0] as { id: string }).id);
  });
});
