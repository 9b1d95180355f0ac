/**
 * Over real HTTP in manual time: a request refused by queue throttling (429 cause "queue") uses
 * up no rate budget (docs/api.md, "Limits and 429s").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../server/serve-helper.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('queue throttling and the rate budget', () => {
  it('/run at 60 per 10 s: 51 queued, 100 queue 429s, purge, then 9 more accepted and the 10th is 429 rate', async () => {
    t = await serve({ workersMax: 0, limits: { operations: { run: { rate: 60 } } } });
    const codes = async (n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const r = await t!.run({ i });
        out.push(r.status === 200 ? '200' : `${r.status} ${r.body.cause}`);
      }
      return out;
    };
    expect(await codes(51)).toEqual(Array(51).fill('200'));
    expect(await codes(100)).toEqual(Array(100).fill('429 queue'));
    await t.advance(1);
    expect((await t.call('POST', '/purge-queue')).body).toEqual({ removed: 51, status: 'completed' });
    expect(await codes(10)).toEqual([...Array(9).fill('200'), '429 rate']);
    // t = 9 999: the 51 of t = 0 are still inside (t - 10 s, t]; at 10 000 they have left.
    await t.advance(9_998);
    expect(await codes(1)).toEqual(['429 rate']);
    await t.advance(1);
    expect(await codes(1)).toEqual(['200']);
  });
});
