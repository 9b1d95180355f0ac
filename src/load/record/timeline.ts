/**
 * Per-window counters (10 s of the run's clock by default) in column form: index = floor(t / windowMs).
 * Counters add across shards; `*Max` columns take the maximum (-1 = nothing observed).
 *
 * Columns are addressed by number (`COL.requests`, …) and all grow together, so a hot-path
 * update is one bounds check and one array write: no lookup by column name per request.
 */
import type { Timeline } from '../../report/run-result.js';
import { BALANCER_COLUMNS } from '../../report/timeline-columns.js';
import { WindowIndex } from './window-index.js';

export type CounterColumn = Exclude<keyof Timeline, 'windowMs' | 'queueDepthMax' | 'inFlightMax'>;
export type MaxColumn = 'queueDepthMax' | 'inFlightMax';

const COUNTERS: readonly CounterColumn[] = [
  'requests',
  'responses2xx',
  'limitedRate',
  'limitedConcurrency',
  'limitedQueue',
  'limitedUnknown',
  'clientTimeouts',
  'jobsCompleted',
  'jobsFailed',
  'expiriesSeen',
  'webhookAttempts',
  'webhookFailures',
  'webhookGaveUp',
  'streamChunks',
  'late',
  'dropped',
  ...BALANCER_COLUMNS,
];
const MAXIMA: readonly MaxColumn[] = ['queueDepthMax', 'inFlightMax'];

/** Column numbers: the counters first, then the maxima. */
export const COL = Object.fromEntries([...COUNTERS, ...MAXIMA].map((c, i) => [c, i])) as Readonly<Record<CounterColumn | MaxColumn, number>>;
const FIRST_MAX = COUNTERS.length;
const IS_BALANCER: readonly boolean[] = COUNTERS.map((c) => (BALANCER_COLUMNS as readonly string[]).includes(c));

export class TimelineRecorder {
  private readonly cols: number[][] = [...COUNTERS, ...MAXIMA].map(() => []);
  /** Windows held by every column. */
  private len = 0;

  private readonly index: WindowIndex;

  /** The run's endpoint is a load-balancing one: the balancer columns are in the result. */
  balancer = false;

  constructor(readonly windowMs: number) {
    this.index = new WindowIndex(windowMs);
  }

  /** The window of `atMs`, every column grown to hold it. */
  window(atMs: number): number {
    const i = this.index.of(atMs);
    if (i >= this.len) this.grow(i);
    return i;
  }

  /** Adds `n` to counter column `col` (a `COL` number) in window `i` (from `window`). */
  addAt(col: number, i: number, n = 1): void {
    this.cols[col]![i]! += n;
  }

  /** Raises maximum column `col` to `v` in window `i` (from `window`). */
  maxAt(col: number, i: number, v: number): void {
    const a = this.cols[col]!;
    if (v > a[i]!) a[i] = v;
  }

  add(col: number, atMs: number, n = 1): void {
    this.cols[col]![this.window(atMs)]! += n;
  }

  max(col: number, atMs: number, v: number): void {
    this.maxAt(col, this.window(atMs), v);
  }

  private grow(i: number): void {
    const cols = this.cols;
    for (let c = 0; c < cols.length; c++) {
      const a = cols[c]!;
      const fill = c < FIRST_MAX ? 0 : -1;
      for (let k = this.len; k <= i; k++) a.push(fill);
    }
    this.len = i + 1;
  }

  /** All columns padded to the same number of windows (covering `endMs`). */
  result(endMs: number): Timeline {
    const n = Math.max(1, Math.ceil(endMs / this.windowMs), this.len);
    const pad = (a: number[], fill: number) => a.concat(new Array<number>(n - a.length).fill(fill));
    const out = { windowMs: this.windowMs } as Timeline;
    for (const c of COUNTERS) if (this.balancer || !IS_BALANCER[COL[c]]) out[c] = pad(this.cols[COL[c]]!, 0);
    for (const c of MAXIMA) out[c] = pad(this.cols[COL[c]]!, -1);
    return out;
  }
}
