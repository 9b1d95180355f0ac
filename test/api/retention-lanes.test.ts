/**
 * Retention (spec §8.4) when a job's retention entry goes stale: a FAILED job retried within its
 * 30 min keeps living until 30 min after its second end, while the jobs behind it in the same
 * retention lane still expire on time; `/status?ttl=` shortening one job does not delay the others.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

const MIN = 60_000;

describe('retention lanes', () => {
  it('a retried job expires 30 min after its second end; the one behind it on time', () => {
    const h = harness({ workersMin: 2, coldStartMs: 0 });
    const a = h.run({ sim: { fail: 'boom', durationMs: 1000 } }).body.id as string; // FAILED at 1 s
    h.at(500);
    const b = h.run({ sim: { durationMs: 1000 } }).body.id as string; // COMPLETED at 1.5 s
    h.at(10 * MIN);
    expect(h.req('POST', `/retry/${a}`).status).toBe(200); // runs again, fails at 10 min + 1 s
    h.at(30 * MIN + 1000 - 1);
    expect(h.status(a).status).toBe(200);
    expect(h.status(b).status).toBe(200);
    h.at(30 * MIN + 1500);
    expect(h.status(b).status).toBe(404); // on time, not held back by a's stale entry
    expect(h.status(a).body.status).toBe('FAILED'); // its first retention is void
    h.at(40 * MIN + 1000 - 1);
    expect(h.status(a).status).toBe(200);
    h.at(40 * MIN + 1000);
    expect(h.status(a).status).toBe(404);
  });

  it('a shortened retention expires that job early and leaves the others on time', () => {
    const h = harness({ workersMin: 2, coldStartMs: 0 });
    const a = h.run({ sim: { durationMs: 1000 } }).body.id as string; // COMPLETED at 1 s
    const b = h.run({ sim: { durationMs: 2000 } }).body.id as string; // COMPLETED at 2 s
    h.at(5000);
    expect(h.status(a, { ttl: '60000' }).status).toBe(200); // gone at 65 s
    h.at(65_000 - 1);
    expect(h.status(a).status).toBe(200);
    h.at(65_000);
    expect(h.status(a).status).toBe(404);
    h.at(30 * MIN + 2000 - 1);
    expect(h.status(b).status).toBe(200);
    h.at(30 * MIN + 2000);
    expect(h.status(b).status).toBe(404);
  });
});
