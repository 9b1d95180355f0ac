/** The reachability guard: 20 answers that all say "wrong key / endpoint / URL" trip it; any other answer first disarms it. */
import { describe, expect, test } from 'vitest';
import { Reachability, UNREACHABLE_AFTER } from '../../src/load/record/reachability.js';

describe('Reachability', () => {
  test('20 refusals trip it once; the most frequent kind names the cause; later answers are not counted', () => {
    const g = new Reachability();
    let trips = 0;
    g.onTrip = () => trips++;
    for (let i = 0; i < UNREACHABLE_AFTER - 1; i++) g.see(i % 3 === 0 ? 401 : 404);
    expect(g.tripped).toBe(false);
    g.see(404);
    expect([g.tripped, trips]).toEqual([true, 1]);
    g.see(200);
    g.see(404);
    expect(trips).toBe(1);
    expect(g.result()).toEqual({ status: 404, answers: 20, stoppedEarly: true });
  });

  test('a 2xx, 429 or 5xx before the 20th shows the target reachable for good', () => {
    for (const ok of [200, 429, 503]) {
      const g = new Reachability();
      for (let i = 0; i < 5; i++) g.see(401);
      g.see(ok);
      for (let i = 0; i < 50; i++) g.see(401);
      expect([g.tripped, g.result()]).toEqual([false, undefined]);
    }
  });

  test('transport errors count, with the first message kept; client timeouts and no answer at all do not', () => {
    const g = new Reachability();
    for (let i = 0; i < 30; i++) g.see(0, undefined, true);
    expect(g.result()).toBeUndefined();
    g.see(0, 'connect ECONNREFUSED 127.0.0.1:9');
    g.see(0, 'socket hang up');
    expect(g.result()).toEqual({ status: 0, answers: 2, stoppedEarly: false, error: 'connect ECONNREFUSED 127.0.0.1:9' });
  });
});
