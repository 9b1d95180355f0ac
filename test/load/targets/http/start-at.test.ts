/** The HTTP target's wait for `--start-at`: time 0 is the instant itself, even when it is already past. */
import { describe, expect, test } from 'vitest';
import { zeroAt } from '../../../../src/load/targets/http/start-at.js';

describe('zeroAt', () => {
  test('an instant 3 s past: no wait, time 0 moved back to it', async () => {
    const t0 = await zeroAt(Date.now() - 3000, () => false);
    const since = performance.now() - t0;
    expect(since).toBeGreaterThanOrEqual(3000);
    expect(since).toBeLessThan(60_000);
  });
  test('an instant 300 ms ahead: waits for it', async () => {
    const at = Date.now() + 300;
    await zeroAt(at, () => false);
    expect(Date.now()).toBeGreaterThanOrEqual(at);
  });
  test('stop() ends the wait for an instant an hour ahead', async () => {
    let looks = 0;
    const before = performance.now();
    const t0 = await zeroAt(Date.now() + 3600_000, () => ++looks > 2);
    expect(t0).toBeGreaterThanOrEqual(before);
    expect(looks).toBeGreaterThan(2);
  });
});
