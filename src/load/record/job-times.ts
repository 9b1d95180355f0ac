/**
 * Each flow's job times — turnaround, queue delay, execution and, when the target sees it, cold
 * start — as whole-run HDR histograms and per-window ones (RunResult `flows.*.jobs` and
 * `windows.flows`). One sample per terminal status read; turnaround runs from the session's
 * intended submission time (no coordinated omission: a held arrival's wait counts) to the moment
 * the client read the terminal status.
 */
import { encode, newHistogram, type Histogram } from '../../report/histogram.js';
import type { FlowJobStats, FlowWindows, JobSeries } from '../../report/run-result.js';
import { MsHistogram } from './ms-histogram.js';
import { WindowHistograms } from './window-histograms.js';

const SERIES: readonly JobSeries[] = ['turnaroundMs', 'queueDelayMs', 'executionMs', 'coldStartMs'];

class FlowTimes {
  readonly whole: Record<JobSeries, MsHistogram>;
  readonly windows: Record<JobSeries, WindowHistograms>;

  constructor(windowMs: number) {
    this.whole = { turnaroundMs: new MsHistogram(), queueDelayMs: new MsHistogram(), executionMs: new MsHistogram(), coldStartMs: new MsHistogram() };
    this.windows = {
      turnaroundMs: new WindowHistograms(windowMs), queueDelayMs: new WindowHistograms(windowMs),
      executionMs: new WindowHistograms(windowMs), coldStartMs: new WindowHistograms(windowMs),
    };
  }

  add(s: JobSeries, atMs: number, ms: number): void {
    this.whole[s].record(ms);
    this.windows[s].record(atMs, ms);
  }
}

export class JobTimes {
  private readonly flows = new Map<string, FlowTimes>();
  /** The target's cold-start waits by job id (Target.watchColdStarts); undefined: not measured. */
  private coldStartOf: ((jobId: string) => number | undefined) | undefined = undefined;

  constructor(readonly windowMs: number) {}

  /**
   * Measures cold starts from `source`: every flow's result then has a `coldStartMs` series, empty
   * if none of its jobs started; without a source none has (absent ≠ 0).
   */
  coldStartsFrom(source: (jobId: string) => number | undefined): void {
    this.coldStartOf = source;
  }

  /** A terminal status of job `id` read at `atMs` by a session of `flow` (times in ms; undefined: not known). */
  add(flow: string, atMs: number, turnaroundMs: number, delayTimeMs: number | undefined, executionTimeMs: number | undefined, id?: string): void {
    // Looked up at the terminal read, by id: a /runsync job started before its client knew its id.
    const coldStartMs = id !== undefined && this.coldStartOf ? this.coldStartOf(id) : undefined;
    let f = this.flows.get(flow);
    if (!f) this.flows.set(flow, (f = new FlowTimes(this.windowMs)));
    f.add('turnaroundMs', atMs, turnaroundMs);
    if (delayTimeMs !== undefined) f.add('queueDelayMs', atMs, delayTimeMs);
    if (executionTimeMs !== undefined) f.add('executionMs', atMs, executionTimeMs);
    if (coldStartMs !== undefined) f.add('coldStartMs', atMs, coldStartMs);
  }

  private series(): readonly JobSeries[] {
    return this.coldStartOf ? SERIES : SERIES.slice(0, 3);
  }

  /** The whole-run histogram of `series` over every flow (the run's `jobs` section). */
  allFlows(series: JobSeries): Histogram {
    const out = newHistogram();
    for (const f of this.flows.values()) out.add(f.whole[series].hdr());
    return out;
  }

  /** The whole-run histograms of `flow` (all empty when it read no terminal status). */
  stats(flow: string): FlowJobStats {
    const f = this.flows.get(flow) ?? new FlowTimes(this.windowMs);
    return Object.fromEntries(this.series().map((s) => [s, encode(f.whole[s].hdr())])) as unknown as FlowJobStats;
  }

  /** Windows 0 to `n - 1` of every flow in `names` (a flow without jobs: empty windows). */
  windowsOf(names: Iterable<string>, n: number): Record<string, FlowWindows> {
    const out: Record<string, FlowWindows> = {};
    for (const name of names) {
      const f = this.flows.get(name);
      out[name] = Object.fromEntries(this.series().map((s) => [s, f ? f.windows[s].result(n) : new Array<string>(n).fill('')])) as unknown as FlowWindows;
    }
    return out;
  }
}
