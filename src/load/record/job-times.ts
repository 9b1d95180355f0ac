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

/** One series of one flow: the whole-run histogram and the per-window ones. */
export class Series {
  readonly whole: MsHistogram;
  readonly windows: WindowHistograms;

  /** `scale`: values per ms (1: whole ms; 100: hundredths of a ms, the stream times). */
  constructor(windowMs: number, scale = 1) {
    this.whole = new MsHistogram(scale);
    this.windows = new WindowHistograms(windowMs, scale);
  }

  /** `n` samples (default 1; more: a stream's equal inter-token gaps, recorded at once) of `ms`. */
  add(atMs: number, ms: number, n = 1): void {
    this.whole.record(ms, n);
    this.windows.record(atMs, ms, n);
  }
}

class FlowTimes {
  readonly turnaround: Series;
  readonly queueDelay: Series;
  readonly execution: Series;
  readonly coldStart: Series;
  /** The series by name (reports). */
  readonly series: Record<JobSeries, Series>;

  constructor(windowMs: number) {
    this.turnaround = new Series(windowMs);
    this.queueDelay = new Series(windowMs);
    this.execution = new Series(windowMs);
    this.coldStart = new Series(windowMs);
    this.series = { turnaroundMs: this.turnaround, queueDelayMs: this.queueDelay, executionMs: this.execution, coldStartMs: this.coldStart };
  }
}

export class JobTimes {
  private readonly flows = new Map<string, FlowTimes>();
  /** The flow of the latest add (most runs have one or two flows). */
  private lastName: string | undefined = undefined;
  private last: FlowTimes | undefined = undefined;
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
    let f = flow === this.lastName ? this.last! : this.flows.get(flow);
    if (!f) this.flows.set(flow, (f = new FlowTimes(this.windowMs)));
    this.lastName = flow;
    this.last = f;
    f.turnaround.add(atMs, turnaroundMs);
    if (delayTimeMs !== undefined) f.queueDelay.add(atMs, delayTimeMs);
    if (executionTimeMs !== undefined) f.execution.add(atMs, executionTimeMs);
    if (coldStartMs !== undefined) f.coldStart.add(atMs, coldStartMs);
  }

  private series(): readonly JobSeries[] {
    return this.coldStartOf ? SERIES : SERIES.slice(0, 3);
  }

  /** The whole-run histogram of `series` over every flow (the run's `jobs` section). */
  allFlows(series: JobSeries): Histogram {
    const out = newHistogram();
    for (const f of this.flows.values()) out.add(f.series[series].whole.hdr());
    return out;
  }

  /** The whole-run histograms of `flow` (all empty when it read no terminal status). */
  stats(flow: string): FlowJobStats {
    const f = this.flows.get(flow) ?? new FlowTimes(this.windowMs);
    return Object.fromEntries(this.series().map((s) => [s, encode(f.series[s].whole.hdr())])) as unknown as FlowJobStats;
  }

  /** Windows 0 to `n - 1` of every flow in `names` (a flow without jobs: empty windows). */
  windowsOf(names: Iterable<string>, n: number): Record<string, FlowWindows> {
    const out: Record<string, FlowWindows> = {};
    for (const name of names) {
      const f = this.flows.get(name);
      out[name] = Object.fromEntries(
        this.series().map((s) => [s, f ? f.series[s].windows.result(n) : new Array<string>(n).fill('')]),
      ) as unknown as FlowWindows;
    }
    return out;
  }
}
