/** Scheduler end-of-millisecond timers (scheduler.ts `atEndOfMs`). */
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/lib/scheduler.js';

describe('atEndOfMs', () => {
  it('runs after every event of its ms, those scheduled later included, before the next ms', () => {
    const s = new Scheduler();
    const log: string[] = [];
    s.at(5, () => {
      log.push('a@5');
      s.atEndOfMs(() => log.push(`end1@${s.nowMs}`));
      s.at(5, () => log.push('c@5'));
      s.atEndOfMs(() => log.push(`end2@${s.nowMs}`));
    });
    s.at(5, () => log.push('b@5'));
    s.at(6, () => log.push('d@6'));
    s.runUntil(10);
    expect(log).toEqual(['a@5', 'b@5', 'c@5', 'end1@5', 'end2@5', 'd@6']);
  });

  it('runUntil(t) leaves the end-of-ms timers of t pending; peekMs reports t + 0.5', () => {
    const s = new Scheduler();
    const log: number[] = [];
    s.at(7, () => s.atEndOfMs(() => log.push(s.nowMs)));
    s.runUntil(7);
    expect(log).toEqual([]);
    expect(s.pending).toBe(1);
    expect(s.peekMs()).toBe(7.5);
    expect(s.stepUntil(7)).toBe(false);
    s.runUntil(8);
    expect(log).toEqual([7]);
    expect(s.nowMs).toBe(8);
    expect(s.pending).toBe(0);
  });

  it('againAtEndOfMs keeps one pending entry; cancel removes it', () => {
    const s = new Scheduler();
    let n = 0;
    const t = s.atEndOfMs(() => n++);
    s.againAtEndOfMs(t);
    expect(s.pending).toBe(1);
    s.runUntil(1);
    expect(n).toBe(1);
    s.againAtEndOfMs(t);
    s.cancel(t);
    s.runUntil(2);
    expect(n).toBe(1);
    s.againAtEndOfMs(t);
    s.runUntilIdle();
    expect(n).toBe(2);
  });

  it('cancelling one of several pending keeps the others in order; the FIFO is reused after draining', () => {
    const s = new Scheduler();
    const log: string[] = [];
    const a = s.atEndOfMs(() => log.push('a'));
    s.atEndOfMs(() => log.push('b'));
    s.atEndOfMs(() => log.push('c'));
    s.cancel(a);
    expect(s.pending).toBe(2);
    s.runUntil(1);
    expect(log).toEqual(['b', 'c']);
    s.againAtEndOfMs(a);
    s.at(1, () => log.push('x'));
    s.runUntil(2);
    expect(log).toEqual(['b', 'c', 'x', 'a']);
    expect(s.pending).toBe(0);
  });
});
