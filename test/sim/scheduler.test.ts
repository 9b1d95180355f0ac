/** The virtual clock and event queue: (atMs, seq) order, cancel, runUntil, the past clamped. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler, type Timer } from '../../src/lib/scheduler.js';

describe('Scheduler', () => {
  it('runs events by time, and equal times in scheduling order', () => {
    const s = new Scheduler();
    const ran: string[] = [];
    s.at(30, () => ran.push('c@30'));
    s.at(10, () => ran.push('a@10'));
    s.at(30, () => ran.push('d@30'));
    s.at(20, () => ran.push('b@20'));
    s.at(10, () => ran.push('a2@10'));
    s.runUntilIdle();
    expect(ran).toEqual(['a@10', 'a2@10', 'b@20', 'c@30', 'd@30']);
    expect(s.nowMs).toBe(30);
  });

  it('orders any mix of schedules and cancels by (atMs, seq) (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ atMs: fc.integer({ min: 0, max: 50 }), cancel: fc.boolean() }), { maxLength: 200 }), (specs) => {
        const s = new Scheduler();
        const ran: number[] = [];
        const timers: Timer[] = specs.map((sp, i) => s.at(sp.atMs, () => ran.push(i)));
        specs.forEach((sp, i) => sp.cancel && s.cancel(timers[i]));
        const expected = specs
          .map((sp, i) => ({ ...sp, i }))
          .filter((x) => !x.cancel)
          .sort((a, b) => a.atMs - b.atMs || a.i - b.i)
          .map((x) => x.i);
        expect(s.pending).toBe(expected.length);
        s.runUntilIdle();
        expect(ran).toEqual(expected);
        expect(s.pending).toBe(0);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('shows the event time on the clock while an event runs', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(7, () => seen.push(s.nowMs));
    s.at(1234, () => seen.push(s.nowMs));
    s.runUntilIdle();
    expect(seen).toEqual([7, 1234]);
  });

  it('cancel removes the event; cancelling again, or after it ran, does nothing', () => {
    const s = new Scheduler();
    const ran: string[] = [];
    const a = s.at(10, () => ran.push('a'));
    const b = s.at(20, () => ran.push('b'));
    s.at(30, () => ran.push('c'));
    s.cancel(b);
    expect(s.pending).toBe(2);
    s.cancel(b);
    s.cancel(undefined);
    expect(s.pending).toBe(2);
    s.runUntil(10);
    s.cancel(a); // already ran
    expect(s.pending).toBe(1);
    s.runUntilIdle();
    expect(ran).toEqual(['a', 'c']);
  });

  it('an event may cancel a later one scheduled at the same instant', () => {
    const s = new Scheduler();
    const ran: string[] = [];
    let second: Timer | undefined;
    s.at(5, () => {
      ran.push('first');
      s.cancel(second);
    });
    second = s.at(5, () => ran.push('second'));
    s.runUntilIdle();
    expect(ran).toEqual(['first']);
  });

  it('runUntil runs events at the limit inclusive, then sets the clock to the limit', () => {
    const s = new Scheduler();
    const ran: number[] = [];
    for (const t of [100, 199, 200, 201]) s.at(t, () => ran.push(t));
    s.runUntil(200);
    expect(ran).toEqual([100, 199, 200]);
    expect(s.nowMs).toBe(200);
    expect(s.peekMs()).toBe(201);
    s.runUntil(150); // never backwards
    expect(s.nowMs).toBe(200);
    s.runUntil(10_000);
    expect(ran).toEqual([100, 199, 200, 201]);
    expect(s.nowMs).toBe(10_000);
    expect(s.peekMs()).toBeUndefined();
  });

  it('runUntil also runs events scheduled during the span, up to the limit', () => {
    const s = new Scheduler();
    const ran: number[] = [];
    const tick = () => {
      ran.push(s.nowMs);
      s.after(30, tick);
    };
    s.at(0, tick);
    s.runUntil(100);
    expect(ran).toEqual([0, 30, 60, 90]);
    expect(s.nowMs).toBe(100);
    expect(s.peekMs()).toBe(120);
  });

  it('clamps the past to now and floors fractional times', () => {
    const s = new Scheduler();
    s.runUntil(500);
    const ran: [string, number][] = [];
    const past = s.at(100, () => ran.push(['past', s.nowMs]));
    const frac = s.at(600.9, () => ran.push(['frac', s.nowMs]));
    const neg = s.after(-50, () => ran.push(['neg', s.nowMs]));
    expect([past.atMs, frac.atMs, neg.atMs]).toEqual([500, 600, 500]);
    s.runUntilIdle();
    expect(ran).toEqual([
      ['past', 500],
      ['neg', 500],
      ['frac', 600],
    ]);
  });

  it('runUntilIdle stops a self-feeding loop after maxEvents; step reports idleness', () => {
    const s = new Scheduler();
    let n = 0;
    const loop = () => {
      n++;
      s.after(0, loop);
    };
    s.at(0, loop);
    s.runUntilIdle(1000);
    expect(n).toBe(1000);
    expect(s.pending).toBe(1);
    expect(s.eventsRun).toBe(1000);
    const idle = new Scheduler();
    expect(idle.step()).toBe(false);
    idle.at(3, () => {});
    expect(idle.step()).toBe(true);
    expect(idle.nowMs).toBe(3);
    expect(idle.step()).toBe(false);
  });

  it('passes the shared argument to the event function', () => {
    const s = new Scheduler();
    const got: string[] = [];
    const fn = (x: string) => got.push(x);
    s.at(2, fn, 'b');
    s.at(1, fn, 'a');
    s.runUntilIdle();
    expect(got).toEqual(['a', 'b']);
  });
});
