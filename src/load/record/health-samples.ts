/**
 * The endpoint as the client's `/health` answers show it (HTTP targets: the only view of a real
 * deployment): per window, the mean of the answers read in it (`source: 'sampled'`; -1 where none
 * was). An answer counts in the window of the moment it was read.
 */
import type { EndpointWindows } from '../../report/run-result.js';
import { ENDPOINT_SERIES, WORKER_STATES, endpointWindows } from './endpoint-series.js';
import { fold, meanPerWindow, num } from './fold-windows.js';
import { GpuHealthSamples } from './gpu-health-samples.js';
import type { HealthBodyRead } from '../../contract/health-body.js';

export class HealthSamples {
  private readonly sums: number[][] = Array.from({ length: ENDPOINT_SERIES }, () => []);
  private readonly n: number[] = [];
  private readonly row = new Array<number>(ENDPOINT_SERIES);
  /** The last answer's values in ENDPOINT_SERIES order (the runner's live /metrics); undefined: none yet. */
  latest: readonly number[] | undefined;
  /** `workers.byGpu` of the answers that have it (loadlab serve, an endpoint that lists its gpus). */
  readonly gpus = new GpuHealthSamples();

  constructor(readonly windowMs: number) {}

  /** A `/health` answer read at `atMs`; one without a numeric `jobs.inQueue` is not a sample. */
  add(atMs: number, b: HealthBodyRead): void {
    const q = b.jobs?.inQueue;
    if (typeof q !== 'number') return;
    const row = this.row;
    row[0] = q;
    row[1] = q + num(b.jobs?.inProgress);
    WORKER_STATES.forEach((s, k) => (row[2 + k] = num(b.workers?.[s])));
    const i = Math.floor(atMs / this.windowMs);
    while (this.n.length <= i) {
      this.n.push(0);
      for (const a of this.sums) a.push(0);
    }
    this.n[i]!++;
    row.forEach((v, k) => (this.sums[k]![i]! += v));
    if (b.workers?.byGpu !== undefined) this.gpus.add(i, b.workers.byGpu);
    this.latest = row.slice();
  }

  /** Windows 0 to `n - 1` (an answer read at or after the end counts in the last); undefined: no sample at all. */
  windows(n: number): EndpointWindows | undefined {
    if (this.n.length === 0) return undefined;
    const counts = fold(this.n, n);
    return endpointWindows(
      'sampled',
      this.sums.map((a) => meanPerWindow(a, counts, n)),
      undefined,
      this.gpus.windows(counts, n),
    );
  }
}
