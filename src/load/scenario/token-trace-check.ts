/**
 * A token trace named by a scenario (`replay` with `format`), checked before the run: every row of
 * its window read once, as a stream (trace/trace-scan.ts, whose result plans reuse), and the window
 * must hold a request, and a loop of it last at least 1 ms.
 */
import { TraceError } from '../trace/trace-row.js';
import { loopPeriodMs, loopTooShort, scanTrace, type TraceReplay } from '../trace/trace-scan.js';

/** The first problem: the arrival's field it is about (`file`, `toMs`, `loop`) and a message naming the file; undefined when none. */
export function checkTokenTrace(r: TraceReplay, loop: boolean): { field: string; message: string } | undefined {
  let s: ReturnType<typeof scanTrace>;
  try {
    s = scanTrace(r);
  } catch (e) {
    if (e instanceof TraceError) return { field: 'file', message: `${r.path}: ${e.message}` };
    return { field: 'file', message: `cannot read ${r.path}: ${(e as Error).message}` };
  }
  if (s.rows === 0) {
    const window = r.fromMs > 0 || r.toMs !== undefined ? ` in the window [${r.fromMs}, ${r.toMs ?? '∞'}) ms` : '';
    const skipped = s.skipped ? ` (${s.skipped} row${s.skipped === 1 ? '' : 's'} with an answer of 0 tokens skipped)` : '';
    return { field: r.toMs !== undefined || r.fromMs > 0 ? 'toMs' : 'file', message: `${r.path}: no request${window}${skipped}` };
  }
  const period = loopPeriodMs(r, s);
  if (loop && !(period >= 1)) return { field: 'loop', message: `${r.path}: ${loopTooShort(period, r.speed)}` };
  return undefined;
}
