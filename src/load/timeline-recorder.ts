/**
 * Per-window counters (10 s of the run's clock by default) in column form: index = floor(t / windowMs).
 * Counters add across shards; `*Max` columns take the maximum (-1 = nothing observed).
 */
import type { Timeline } from '../report/run-result.js';

export type CounterColumn = Exclude<keyof Timeline, 'windowMs' | 'queueDepthMax' | 'inFlightMax'>;
export type MaxColumn = 'queueDepthMax' | 'inFlightMax';

const COUNTERS: CounterColumn[] = [
  'requests', 'responses2xx', 'limitedRate', 'limitedConcurrency', 'limitedQueue', 'limitedUnknown', 'clientTimeouts',
  'jobsCompleted', 'jobsFailed', 'expiriesSeen', 'webhookFailures', 'streamChunks', 'late', 'dropped',
];

export class TimelineRecorder {
  private readonly cols = new Map<CounterColumn | MaxColumn, number[]>();

  constructor(readonly windowMs: number) {
    for (const c of COUNTERS) this.cols.set(c, []);
    this.cols.set('queueDepthMax', []);
    this.cols.set('inFlightMax', []);
  }

  add(col: CounterColumn, atMs: number, n = 1): void {
    const a = this.cols.get(col)!;
    const i = Math.floor(atMs / this.windowMs);
    while (a.length <= i) a.push(0);
    a[i]! += n;
  }

  max(col: MaxColumn, atMs: number, v: number): void {
    const a = this.cols.get(col)!;
    const i = Math.floor(atMs / this.windowMs);
    while (a.length <= i) a.push(-1);
    if (v > a[i]!) a[i] = v;
  }

  /** All columns padded to the same number of windows (covering `endMs`). */
  result(endMs: number): Timeline {
    const n = Math.max(1, Math.ceil(endMs / this.windowMs), ...[...this.cols.values()].map((a) => a.length));
    const pad = (a: number[], fill: number) => a.concat(new Array<number>(n - a.length).fill(fill));
    const out = { windowMs: this.windowMs } as Timeline;
    for (const c of COUNTERS) out[c] = pad(this.cols.get(c)!, 0);
    out.queueDepthMax = pad(this.cols.get('queueDepthMax')!, -1);
    out.inFlightMax = pad(this.cols.get('inFlightMax')!, -1);
    return out;
  }
}
