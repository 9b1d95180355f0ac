/** The HTTP target's wall-time event queue: fractional times kept, nothing runs before its time. */
import { describe, expect, test } from 'vitest';
import { WallQueue } from '../../../../src/load/targets/http/wall-queue.js';

describe('WallQueue', () => {
  test('runs events in time order (ties in insertion order), none before its fractional time', () => {
    const q = new WallQueue();
    const ran: string[] = [];
    for (const [at, name] of [
      [10.7, 'c'],
      [10.2, 'a'],
      [10.7, 'd'],
      [10.5, 'b'],
      [11, 'e'],
    ] as const)
      q.push(at, () => ran.push(name));
    expect(q.runDue(10.1)).toBe(0);
    expect(q.runDue(10.69)).toBe(2);
    expect(ran).toEqual(['a', 'b']);
    expect(q.nextAtMs()).toBe(10.7);
    expect(q.runDue(11)).toBe(3);
    expect(ran).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(q.nextAtMs()).toBe(Infinity);
  });
  test('an event scheduled by a running event runs in the same pass when it is due, with its own time', () => {
    const q = new WallQueue();
    const seen: number[] = [];
    q.push(1, () => {
      seen.push(q.runningAtMs);
      q.push(1.5, () => seen.push(q.runningAtMs));
      q.push(3, () => seen.push(q.runningAtMs));
    });
    q.runDue(2);
    expect(seen).toEqual([1, 1.5]);
    expect(q.size).toBe(1);
    expect(Number.isNaN(q.runningAtMs)).toBe(true);
  });
  test('many random times come out sorted', () => {
    const q = new WallQueue();
    const out: number[] = [];
    let x = 12345;
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const at = (x % 100_000) / 100;
      q.push(at, () => out.push(at));
    }
    q.runDue(1000);
    expect(out).toHaveLength(2000);
    expect(out).toEqual([...out].sort((a, b) => a - b));
  });
});
