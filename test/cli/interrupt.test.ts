/** Ctrl-C during a run: the first SIGINT or SIGTERM aborts the run's signal; the second exits 130 at once. */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { catchInterrupts } from '../../src/cli/interrupt.js';
import { exitCodeOf } from '../../src/cli/verdict-exit.js';
import type { Verdict } from '../../src/report/verdict.js';

describe('catchInterrupts', () => {
  test('first signal: abort and say so; second: exit 130; dispose stops listening', () => {
    const proc = new EventEmitter();
    const said: string[] = [];
    const exits: number[] = [];
    const i = catchInterrupts(
      () => said.push('stopping'),
      proc,
      (c) => exits.push(c),
    );
    expect(i.signal.aborted).toBe(false);
    proc.emit('SIGTERM');
    expect(i.signal.aborted).toBe(true);
    expect(said).toEqual(['stopping']);
    expect(exits).toEqual([]);
    proc.emit('SIGINT');
    expect(exits).toEqual([130]);
    i.dispose();
    expect(proc.listenerCount('SIGINT') + proc.listenerCount('SIGTERM')).toBe(0);
  });
});

test('an interrupted run exits 130; any other INVALID run 1', () => {
  const v = (invalid: Verdict['invalid']): Verdict => ({ status: 'INVALID', invalid, line: 'INVALID', throttled: '', limits: '' });
  expect(exitCodeOf(v('interrupted'))).toBe(130);
  expect(exitCodeOf(v('behind'))).toBe(1);
});
