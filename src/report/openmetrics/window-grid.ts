/**
 * The instants metrics.om writes a per-window column at: window i covers [i·W, (i + 1)·W) of the
 * run's clock and is sampled at its end, the last one at the end of the run; the start of the
 * run (0) carries the counters' 0. The timeline (10 s) and the per-window histograms (10 s, or
 * coarser for long runs: window-size.ts) each have their grid.
 */
/** Points of one series: [run ms, value], in increasing time. */
export type Points = (readonly [number, number])[];

export class WindowGrid {
  /** Run ms of the last sample: the end of the last window (the end of the run). */
  readonly endMs: number;

  /** `n` windows of `windowMs` over a run of `elapsedMs`. */
  constructor(
    readonly windowMs: number,
    readonly n: number,
    private readonly elapsedMs: number,
  ) {
    this.endMs = n ? this.end(n - 1) : Math.max(elapsedMs, 1);
  }

  /** Where window i is sampled: its end, or the end of the run inside it (1 ms after its start at least). */
  end(i: number): number {
    return Math.min((i + 1) * this.windowMs, Math.max(this.elapsedMs, i * this.windowMs + 1));
  }

  /** A counter: 0 at the start, then the running total of `col` at every window end. */
  cumulative(col: readonly number[]): Points {
    const pts: Points = [[0, 0]];
    let sum = 0;
    for (let i = 0; i < this.n; i++) pts.push([this.end(i), (sum += col[i] ?? 0)]);
    return pts;
  }

  /** A gauge of per-window values (maxima, averages): each at its window end, none where it is negative (not observed). */
  values(col: readonly number[]): Points {
    const pts: Points = [];
    for (let i = 0; i < this.n; i++) {
      const x = col[i] ?? -1;
      if (x >= 0) pts.push([this.end(i), x]);
    }
    return pts;
  }

  /** A constant: at the start and at every window end, so a query finds it anywhere in the run. */
  steady(value: number): Points {
    const pts: Points = [[0, value]];
    for (let i = 0; i < this.n; i++) pts.push([this.end(i), value]);
    return pts;
  }

  /** A figure known only for the whole run: 0 at the start, the total at the end. */
  whole(total: number): Points {
    return [
      [0, 0],
      [this.endMs, total],
    ];
  }
}
