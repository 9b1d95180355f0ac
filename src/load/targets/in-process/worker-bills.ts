/**
 * What the endpoint's workers are billed, from the simulator's own worker pool: each worker keeps
 * its billed ms and the pool its time per state (WorkerPool.watchLives), and each start and stop
 * feeds a WorkerMeter (report/worker-bill.ts: the billing rule), workers told apart by number.
 * Nothing is kept per worker beyond the pool's own objects, so a day of millions of short-lived
 * workers costs no memory and builds no event. The API's answers do not show workers, so only the
 * in-process target can offer it (Target.watchWorkers).
 */
import type { WorkerPool } from '../../../sim/worker-pool.js';
import { aliveBilledMs, billedByState, secondsOf, WorkerMeter, type BillingRule } from '../../../report/worker-bill.js';
import type { WorkerBillSeen } from '../../../report/workers-section.js';

/**
 * Watches `pool` from now (its alive workers, the workersMin the simulator started when it was
 * built, start now). The returned function gives the bill with the alive workers closed at its
 * `endMs` (read it once, at the end of the run).
 */
export function watchWorkerBill(pool: WorkerPool, rule: BillingRule): (endMs: number) => WorkerBillSeen {
  const meter = new WorkerMeter<number>(rule.workersMin);
  const billed = billedByState(rule.initializing);
  pool.watchLives({
    billed,
    started: (n, atMs) => meter.start(n, atMs),
    stopped: (n, atMs, billedMs) => meter.stop(n, atMs, billedMs),
  });
  return (endMs) => {
    const byState: Record<string, number> = { ...pool.msByState };
    const alive: { id: number; billedMs: number }[] = [];
    for (const w of pool.all()) {
      const ms = Math.max(0, endMs - w.sinceMs);
      if (ms > 0) byState[w.state] = (byState[w.state] ?? 0) + ms;
      alive.push({ id: w.n, billedMs: aliveBilledMs(w.billedMs + (billed[w.state] ? ms : 0), w.state, w.sinceMs, endMs, rule.idleTailMs) });
    }
    return {
      activeSeconds: rule.workersMin * Math.ceil(endMs / 1000),
      flexSeconds: meter.flexWith(alive),
      workersStarted: meter.started,
      secondsByState: secondsOf(byState),
      unhealthyOnStart: pool.unhealthyOnStart,
    };
  };
}
