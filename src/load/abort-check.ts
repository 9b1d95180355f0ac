/**
 * `abortOnFail` thresholds (k6's): checked at the end of every 10 s window of the run, once the
 * run is `delayAbortEvalMs` old — a whole-run threshold on the data so far, an `every` threshold
 * on each of its windows as it closes. The first failure names the threshold and the time; the
 * run loop then stops the drive (no new arrivals) and writes what was measured.
 */
import type { RunResult } from '../report/run-result.js';
import { RUN_RESULT_VERSION } from '../report/run-result.js';
import type { ThresholdInput } from '../report/threshold-metrics.js';
import { evaluateThreshold, parseThreshold, type Threshold } from '../report/thresholds.js';
import type { Recorder } from './record/recorder.js';
import { windowsOf } from './record/windows-of.js';
import { thresholdSpec, type Scenario } from './scenario/schema.js';

interface Watched {
  t: Threshold;
  delayMs: number;
  /** `every`: the next window (in units of `everyMs`) not checked yet. */
  nextGroup: number;
}

export class AbortCheck {
  private constructor(
    private readonly watched: Watched[],
    private readonly rec: Recorder,
    private readonly flows: readonly string[],
  ) {}

  /** The checker of the scenario's abortOnFail thresholds; undefined when it has none. */
  static of(sc: Scenario, rec: Recorder): AbortCheck | undefined {
    const watched: Watched[] = [];
    for (const entry of sc.thresholds) {
      const s = thresholdSpec(entry);
      const t = parseThreshold(s.expr);
      if (s.abortOnFail && typeof t !== 'string') watched.push({ t, delayMs: s.delayAbortEvalMs, nextGroup: 0 });
    }
    return watched.length
      ? new AbortCheck(
          watched,
          rec,
          sc.traffic.map((f) => f.name),
        )
      : undefined;
  }

  /** At a window end `nowMs`: the first watched threshold that fails on the data so far. */
  check(nowMs: number): NonNullable<RunResult['aborted']> | undefined {
    const due = this.watched.filter((w) => nowMs >= w.delayMs);
    if (!due.length) return undefined;
    const W = this.rec.histWindowMs;
    let whole: ThresholdInput | undefined;
    for (const w of due) {
      const every = w.t.everyMs;
      if (every !== undefined) {
        const groups = Math.floor(nowMs / every);
        if (groups <= w.nextGroup) continue;
        const r = this.snapshot(groups * (every / W), false, nowMs);
        const res = evaluateThreshold(r, w.t, w.nextGroup);
        w.nextGroup = groups;
        if (!res.ok && res.window) return { threshold: w.t.expr, atMs: nowMs };
      } else {
        const res = evaluateThreshold((whole ??= this.snapshot(0, true, nowMs)), w.t);
        if (!res.ok && res.value !== null) return { threshold: w.t.expr, atMs: nowMs };
      }
    }
    return undefined;
  }

  /** What thresholds read, as of now: `n` closed histogram windows; whole-run sections if asked. */
  private snapshot(n: number, sections: boolean, nowMs: number): ThresholdInput {
    const windows = windowsOf(this.rec, n, this.flows);
    // An `every` threshold reads only `windows`: the whole-run sections are not built for it.
    if (!sections) return { version: RUN_RESULT_VERSION, windows, elapsedMs: nowMs } as ThresholdInput;
    return { version: RUN_RESULT_VERSION, ...this.rec.sections(), windows, elapsedMs: nowMs };
  }
}
