/**
 * When the progress line shows, on a fake wall clock: at most 5 redraws a second in place on a
 * terminal, one plain line every 10 s off one, nothing under CI.
 */
import { describe, expect, test } from 'vitest';
import { ProgressSchedule, progressMode } from '../../src/cli/progress/schedule.js';
import { progressReporter } from '../../src/cli/progress/reporter.js';
import type { Progress } from '../../src/load/run-scenario.js';

/** The wall times (ms) at which `schedule` shows a line, of reports at each of `times`. */
const shown = (s: ProgressSchedule, times: number[]) => times.filter((t) => s.due(t));
const at = (wallMs: number): Progress => ({
  phase: 'traffic',
  nowMs: wallMs,
  wallMs,
  durationMs: 60_000,
  drainMs: 0,
  requests: 7,
  limited: 0,
  queueDepth: 1,
  workers: 2,
});

describe('progressMode', () => {
  test('CI set (not empty, false or 0) silences it; otherwise a terminal redraws and anything else gets plain lines', () => {
    expect(progressMode(true, 'true')).toBe('off');
    expect(progressMode(false, '1')).toBe('off');
    expect(progressMode(true, undefined)).toBe('tty');
    expect(progressMode(true, '')).toBe('tty');
    expect(progressMode(true, 'false')).toBe('tty');
    expect(progressMode(false, '0')).toBe('plain');
    expect(progressMode(false, undefined)).toBe('plain');
  });
});

describe('ProgressSchedule', () => {
  test('a terminal: at most one redraw per 200 ms', () => {
    const every50 = Array.from({ length: 21 }, (_, i) => i * 50);
    expect(shown(new ProgressSchedule('tty'), every50)).toEqual([200, 400, 600, 800, 1000]);
  });

  test('plain: one line per 10 s of wall time, however often or late the reports come', () => {
    const every250 = Array.from({ length: 161 }, (_, i) => i * 250);
    expect(shown(new ProgressSchedule('plain'), every250)).toEqual([10_000, 20_000, 30_000, 40_000]);
    // A 25 s gap between reports (a slow slice): one line, then back on the 10 s marks.
    expect(shown(new ProgressSchedule('plain'), [3000, 28_000, 29_000, 30_500, 39_999, 40_000])).toEqual([28_000, 30_500, 40_000]);
  });

  test('off: never', () => {
    expect(shown(new ProgressSchedule('off'), [0, 10_000, 1e9])).toEqual([]);
  });
});

describe('progressReporter', () => {
  const sink = (isTTY: boolean, columns?: number) => {
    const out = {
      isTTY,
      columns,
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    return out;
  };

  test('a terminal: the line redrawn in place (\\r, erase to the end), cut to the width; clear() erases it', () => {
    const out = sink(true, 40);
    const r = progressReporter(out, {});
    r.onProgress!(at(100));
    r.onProgress!(at(250));
    r.clear();
    expect(out.text).toBe('\rtraffic   0%  wall 0s  ETA --  requests\x1b[K\r\x1b[K');
  });

  test('a pipe: plain lines, no \\r and no escape codes; clear() writes nothing', () => {
    const out = sink(false);
    const r = progressReporter(out, { CI: '' });
    for (let t = 0; t <= 20_000; t += 1000) r.onProgress!(at(t));
    r.clear();
    expect(out.text).toBe(
      'traffic  16%  wall 10s  ETA 50s  requests 7  429s 0  queue 1  workers 2\n' + 'traffic  33%  wall 20s  ETA 40s  requests 7  429s 0  queue 1  workers 2\n',
    );
  });

  test('under CI: no progress callback at all', () => {
    expect(progressReporter(sink(true), { CI: 'true' }).onProgress).toBeUndefined();
  });
});
