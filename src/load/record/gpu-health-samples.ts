/**
 * The workers on each GPU type as the client's `/health` answers show them (`workers.byGpu`, which
 * `loadlab serve` sends for an endpoint that lists its gpus): per window, per type and state, the
 * mean over the answers read in it (health-samples.ts counts them; an answer without the type
 * reads 0 for it). Types in the order first seen (an answer lists them in priority order).
 */
import type { GpuWindows } from '../../report/run-result.js';
import { WORKER_STATES } from '../../contract/sim-events.js';
import { byState } from './endpoint-series.js';
import { meanPerWindow, num } from './fold-windows.js';

export class GpuHealthSamples {
  /** Per type: per state (WORKER_STATES order), the sum of the answers' counts per window. */
  private readonly sums = new Map<string, number[][]>();
  /** The last answer's byGpu: per type, its counts in WORKER_STATES order (the runner's live /metrics); undefined: none yet. */
  latest: { gpu: string; counts: number[] }[] | undefined;

  /** An answer's `workers.byGpu`, read in window `i`; anything not an object of objects is none. */
  add(i: number, byGpu: unknown): void {
    if (typeof byGpu !== 'object' || byGpu === null || Array.isArray(byGpu)) return;
    const latest: { gpu: string; counts: number[] }[] = [];
    for (const [gpu, c] of Object.entries(byGpu as Record<string, unknown>)) {
      if (typeof c !== 'object' || c === null) continue;
      let s = this.sums.get(gpu);
      if (!s) this.sums.set(gpu, (s = WORKER_STATES.map(() => [])));
      const counts = WORKER_STATES.map((state) => num((c as Record<string, unknown>)[state]));
      counts.forEach((v, k) => {
        const col = s[k]!;
        while (col.length <= i) col.push(0);
        col[i]! += v;
      });
      latest.push({ gpu, counts });
    }
    this.latest = latest;
  }

  /** Windows 0 to `n - 1` given the answers per window (`counts`, already folded to n); undefined: no answer had byGpu. */
  windows(counts: readonly number[], n: number): GpuWindows[] | undefined {
    if (this.sums.size === 0) return undefined;
    return [...this.sums].map(([gpu, s]) => ({
      gpu,
      workers: byState(
        s.map((col) => meanPerWindow(col, counts, n)),
        0,
      ),
    }));
  }
}
