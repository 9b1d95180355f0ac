/**
 * What the endpoint's workers are billed, from the simulator's own worker pool: each worker keeps
 * its billed ms and the pool its time per state (WorkerPool.watchLives), and each start and stop
 * feeds a WorkerMeter (report/worker-bill.ts: the billing rule), workers told apart by number.
 * Nothing is kept per worker beyond the pool's own objects, so a day of millions of short-lived
 * workers costs no memory and builds no event. The API's answers do not show workers, so only the
 * in-process target can offer it (Target.watchWorkers).
 */
import type { WorkerPool } from '../../../sim/worker-pool.js';
import { aliveBilledMs, billedByState, secondsOf, shareActive, WorkerMeter, type BillingRule, type GpuBill } from '../../../report/worker-bill.js';
import type { WorkerBillSeen } from '../../../report/workers-section.js';

/**
 * Watches `pool` from now (its alive workers, the workersMin the simulator started when it was
 * built, start now). The returned function gives the bill with the alive workers closed at its
 * `endMs` (read it once, at the end of the run).
 */
export function watchWorkerBill(pool: WorkerPool, rule: BillingRule, gpus?: readonly string[]): (endMs: number) => WorkerBillSeen {
  const meter = new WorkerMeter<number>(rule.workersMin, pool.placed.length);
  const billed = billedByState(rule.initializing);
  pool.watchLives({
    billed,
    started: (n, atMs) => meter.start(n, atMs),
    stopped: (n, atMs, billedMs, gpu) => meter.stop(n, atMs, billedMs, gpu),
  });
  return (endMs) => {
    const byState: Record<string, number> = { ...pool.msByState };
    const byGpu = pool.msByGpu?.map((m) => ({ ...m }) as Record<string, number>);
    const alive: { id: number; billedMs: number; gpu: number }[] = [];
    for (const w of pool.all()) {
      const ms = Math.max(0, endMs - w.sinceMs);
      if (ms > 0) {
        byState[w.state] = (byState[w.state] ?? 0) + ms;
        if (byGpu !== undefined && w.gpu >= 0) byGpu[w.gpu]![w.state] = (byGpu[w.gpu]![w.state] ?? 0) + ms;
      }
      const gpu = Math.max(0, w.gpu);
      alive.push({ id: w.n, gpu, billedMs: aliveBilledMs(w.billedMs + (billed[w.state] ? ms : 0), w.state, w.sinceMs, endMs, rule.idleTailMs) });
    }
    const activeSeconds = rule.workersMin * Math.ceil(endMs / 1000);
    const read = meter.readWith(alive, endMs);
    const flexSeconds = read.flexSeconds;
    return {
      activeSeconds,
      flexSeconds,
      workersStarted: meter.started,
      secondsByState: secondsOf(byState),
      unhealthyOnStart: pool.unhealthyOnStart,
      ...(gpus !== undefined && byGpu !== undefined ? { byGpu: gpuBills(gpus, pool, read, activeSeconds, byGpu) } : {}),
    };
  };
}

/** Each GPU type's share of the bill (worker-bill.ts GpuBill). */
function gpuBills(
  gpus: readonly string[],
  pool: WorkerPool,
  read: Pick<ReturnType<WorkerMeter<number>['readWith']>, 'flexByGpu' | 'activeMsByGpu'>,
  activeSeconds: number,
  ms: Record<string, number>[],
): GpuBill[] {
  const active = shareActive(activeSeconds, read.activeMsByGpu);
  return gpus.map((gpu, t) => ({
    gpu,
    activeSeconds: active[t]!,
    flexSeconds: read.flexByGpu[t]!,
    workersStarted: pool.startedOn[t]!,
    secondsByState: secondsOf(ms[t]!),
  }));
}
