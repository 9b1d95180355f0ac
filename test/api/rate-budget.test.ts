/**
 * What uses up the rate budget (docs/api.md, "Limits and 429s"): a request refused
 * with a 429 — concurrency, rate or queue throttling — does not; every other request that passed
 * the concurrency and rate checks does (a 400 included).
 */
import { describe, expect, it } from 'vitest';
import { harness, type Reply } from '../helpers/harness.js';

interface Tally {
  ok: number;
  rate: number;
  queue: number;
  other: number;
}

function tally(replies: Reply[]): Tally {
  const t: Tally = { ok: 0, rate: 0, queue: 0, other: 0 };
  for (const r of replies) {
    if (r.status === 200) t.ok++;
    else if (r.status === 429 && r.body.cause === 'rate') t.rate++;
    else if (r.status === 429 && r.body.cause === 'queue') t.queue++;
    else t.other++;
  }
  return t;
}

/** `/run` at `perSec` (the i-th at floor(i × 1000 / perSec) ms) for `seconds`. */
function steadyRuns(h: ReturnType<typeof harness>, perSec: number, seconds: number): Reply[] {
  const out: Reply[] = [];
  for (let i = 0; i < perSec * seconds; i++) {
    h.at(Math.floor((i * 1000) / perSec));
    out.push(h.run({ i }));
  }
  return out;
}

describe('queue-throttled requests use up no rate budget', () => {
  it('queue full, /run at 150/s for 30 s: 502 accepted, 0 rate 429s, 3 998 queue 429s', () => {
    // One worker busy for an hour; the queue takes 501 (more than workersMax × 500 is refused).
    const h = harness({ workersMax: 1, jobDurationMs: 3_600_000 });
    expect(tally(steadyRuns(h, 150, 30))).toEqual({ ok: 502, rate: 0, queue: 3998, other: 0 });
    expect(h.req('GET', '/health').body.jobs).toMatchObject({ inProgress: 1, inQueue: 501 });
    expect(h.ep.limits.snapshot('run', h.sim.nowMs).windowCount).toBe(0);
  });

  it('the same with a fixed window', () => {
    const h = harness({ workersMax: 1, jobDurationMs: 3_600_000, limits: { window: 'fixed' } });
    expect(tally(steadyRuns(h, 150, 30))).toEqual({ ok: 502, rate: 0, queue: 3998, other: 0 });
  });

  it('after 2 000 queue 429s, the rest of the rate budget is still there (/run at 60 per 10 s)', () => {
    const h = harness({ workersMax: 0, limits: { operations: { run: { rate: 60 } } } });
    const first = Array.from({ length: 51 }, () => h.run());
    const refused = Array.from({ length: 2000 }, () => h.run());
    expect(tally(first)).toEqual({ ok: 51, rate: 0, queue: 0, other: 0 });
    expect(tally(refused)).toEqual({ ok: 0, rate: 0, queue: 2000, other: 0 });
    h.at(1);
    expect(h.req('POST', '/purge-queue').body.removed).toBe(51);
    h.at(2);
    // 51 + 9 = 60 accepted within 10 s; the next is refused for the rate.
    expect(tally(Array.from({ length: 10 }, () => h.run()))).toEqual({ ok: 9, rate: 1, queue: 0, other: 0 });
  });

  it('queue 429s on /runsync and /openai give their token back too', () => {
    const h = harness({ workersMax: 0, limits: { operations: { runsync: { rate: 3 }, openai: { rate: 3 } } } });
    for (let i = 0; i < 51; i++) h.run();
    const chat = { messages: [{ role: 'user', content: 'hi' }] };
    for (let i = 0; i < 10; i++) {
      expect(h.runsync().body.cause).toBe('queue');
      expect(h.req('POST', '/openai/v1/chat/completions', chat).body.cause).toBe('queue');
    }
    h.req('POST', '/purge-queue');
    expect([h.runsync(), h.runsync(), h.runsync(), h.runsync()].map((r) => r.res?.status)).toEqual([undefined, undefined, undefined, 429]);
  });
});

describe('requests that do use up the rate budget', () => {
  it('a /run answered 400 (bad body) counts; a 429 for the rate does not', () => {
    const h = harness({ workersMax: 0, limits: { operations: { run: { rate: 5 } } } });
    const bad = Array.from({ length: 3 }, () => h.req('POST', '/run', { nope: 1 }));
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400]);
    expect([h.run(), h.run(), h.run(), h.run()].map((r) => r.status)).toEqual([200, 200, 429, 429]);
    h.at(10_000);
    // The five of t = 0 have left the window; the two rate 429s took nothing.
    expect([h.run(), h.run(), h.run(), h.run(), h.run(), h.run()].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
