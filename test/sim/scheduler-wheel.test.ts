/**
 * The scheduler's two stores (near-future wheel, far-future heap) behave as one queue ordered by
 * (atMs, seq): checked against a naive sorted-list model over times that straddle the wheel's span,
 * with events that schedule, re-arm and cancel others while running, and runUntil in steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler, type Timer } from '../../src/lib/scheduler.js';

interface ModelTimer {
  id: number;
  atMs: number;
  seq: number;
  live: boolean;
}

describe('Scheduler wheel and heap', () => {
  it('runs any mix of near and far events, re-arms and cancels in (atMs, seq) order (property)', () => {
    const op = fc.record({
      delay: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 16_000, max: 17_000 }), fc.integer({ min: 0, max: 200_000 })),
      spawn: fc.integer({ min: 0, max: 2 }),
      cancelOther: fc.boolean(),
      rearm: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 30_000 }), { maxLength: 8 }), (ops, steps) => {
        const s = new Scheduler();
        const model: ModelTimer[] = [];
        const timers: Timer[] = [];
        let seq = 0;
        let budget = 400;
        const ran: number[] = [];
        const expectedRun: number[] = [];
        const schedule = (k: number, atMs: number): void => {
          const id = timers.length;
          const at = Math.max(atMs, s.nowMs);
          timers.push(s.at(at, () => fire(id, k)));
          model.push({ id, atMs: at, seq: seq++, live: true });
        };
        const fire = (id: number, k: number): void => {
          ran.push(id);
          const next = modelNext();
          expectedRun.push(next.id);
          next.live = false;
          const o = ops[k % ops.length]!;
          if (budget-- <= 0) return;
          for (let i = 0; i < o.spawn; i++) schedule(k + i + 1, s.nowMs + ops[(k + i + 1) % ops.length]!.delay);
          if (o.cancelOther && timers.length > 0) {
            const victim = (id * 7 + k) % timers.length;
            s.cancel(timers[victim]);
            model[victim]!.live = false;
          }
          if (o.rearm) {
            const t = timers[id]!;
            s.again(t, s.nowMs + o.delay);
            const m = model[id]!;
            m.atMs = Math.max(s.nowMs + o.delay, s.nowMs);
            m.seq = seq++;
            m.live = true;
          }
        };
        const modelNext = (): ModelTimer => {
          let best: ModelTimer | undefined;
          for (const m of model) if (m.live && (!best || m.atMs < best.atMs || (m.atMs === best.atMs && m.seq < best.seq))) best = m;
          return best!;
        };
        ops.forEach((o, k) => schedule(k, o.delay));
        for (const step of steps) {
          s.runUntil(s.nowMs + step);
          expect(s.pending).toBe(model.filter((m) => m.live).length);
          const next = model.filter((m) => m.live).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq)[0];
          expect(s.peekMs()).toBe(next?.atMs);
        }
        s.runUntilIdle(2000);
        expect(ran).toEqual(expectedRun);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('keeps order between a heap timer and wheel timers at the same instant', () => {
    const s = new Scheduler();
    const ran: string[] = [];
    s.at(20_000, () => ran.push('far, first'));
    s.runUntil(10_000);
    s.at(20_000, () => ran.push('near, second'));
    s.at(19_999, () => ran.push('near, earlier'));
    s.runUntilIdle();
    expect(ran).toEqual(['near, earlier', 'far, first', 'near, second']);
  });
});
