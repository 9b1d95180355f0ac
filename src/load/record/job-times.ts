/**
 * Each flow's job times — turnaround, queue delay, execution — as whole-run HDR histograms and
 * per-window ones (RunResult `flows.*.jobs` and `windows.flows`). One sample per terminal status
 * read; turnaround runs from the session's intended submission time (no coordinated omission:
 * a held arrival's wait counts) to the moment the client read the terminal status.
 */
import { encode } from '../../report/histogram.js';
import type { FlowJobStats, JobSeries } from '../../report/run-result.js';
import { MsHistogram } from './ms-histogram.js';
import { WindowHistograms } from './window-histograms.js';

const SERIES: readonly JobSeries[] = ['turnaroundMs', 'queueDelayMs', 'executionMs'];

class FlowTimes {
  readonly whole = { turnaroundMs: new MsHistogram(), queueDelayMs: new MsHistogram(), executionMs: new MsHistogram() };
  readonly windows: Record<JobSeries, WindowHistograms>;

  constructor(windowMs: number) {
    this.windows = { turnaroundMs: new WindowHistograms(windowMs), queueDelayMs: new WindowHistograms(windowMs), executionMs: new WindowHistograms(windowMs) };
  }

  add(s: JobSeries, atMs: number, ms: number): void {
    this.whole[s].record(ms);
    this.windows[s].record(atMs, ms);
  }
}

export class JobTimes {
  private readonly flows = new Map<string, FlowTimes>();

  constructor(readonly windowMs: number) {}

  /** A terminal status read at `atMs` by a session of `flow` (times in ms; undefined: not in the body). */
  add(flow: string, atMs: number, turnaroundMs: number, delayTimeMs: number | undefined, executionTimeMs: number | undefined): void {
    let f = this.flows.get(flow);
    if (!f) this.flows.set(flow, (f = new FlowTimes(this.windowMs)));
    f.add('turnaroundMs', atMs, turnaroundMs);
    if (delayTimeMs !== undefined) f.add('queueDelayMs', atMs, delayTimeMs);
    if (executionTimeMs !== undefined) f.add('executionMs', atMs, executionTimeMs);
  }

  /** The whole-run histograms of `flow` (all empty when it read no terminal status). */
  stats(flow: string): FlowJobStats {
    const f = this.flows.get(flow) ?? new FlowTimes(this.windowMs);
    return { turnaroundMs: encode(f.whole.turnaroundMs.hdr()), queueDelayMs: encode(f.whole.queueDelayMs.hdr()), executionMs: encode(f.whole.executionMs.hdr()) };
  }

  /** Windows 0 to `n - 1` of every flow in `names` (a flow without jobs: empty windows). */
  windowsOf(names: Iterable<string>, n: number): Record<string, Record<JobSeries, string[]>> {
    const out: Record<string, Record<JobSeries, string[]>> = {};
    for (const name of names) {
      const f = this.flows.get(name);
      out[name] = Object.fromEntries(SERIES.map((s) => [s, f ? f.windows[s].result(n) : new Array<string>(n).fill('')])) as Record<JobSeries, string[]>;
    }
    return out;
  }
}
