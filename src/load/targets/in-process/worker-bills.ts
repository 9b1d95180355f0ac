/**
 * What the endpoint's workers are billed, from the simulator's `worker.state` events
 * (sim-events.ts), counted as they come: each worker's time in each state and its billed ms, fed
 * to a WorkerMeter (report/worker-bill.ts: the billing rule) at its start and stop. Only alive
 * workers are kept, so a day of millions of short-lived workers costs no memory. The API's answers
 * do not show workers, so only the in-process target can offer it (Target.watchWorkers). It
 * listens to `worker.state` events alone (EventBus.onWorkerState): the simulator builds no other
 * domain event for it.
 */
import type { WorkerState } from '../../../contract/sim-events.js';
import type { EventBus } from '../../../sim/event-bus.js';
import { aliveBilledMs, isBilled, secondsOf, WorkerMeter, type BillingRule, type WorkerBill } from '../../../report/worker-bill.js';

interface Open {
  state: WorkerState;
  sinceMs: number;
  billedMs: number;
}

/**
 * Listens on `bus` from `nowMs`; `initial`: the workers alive then (the workersMin the simulator
 * started when it was built), started at `nowMs`. The returned function gives the bill with the
 * alive workers closed at its `nowMs` (read it once, at the end of the run).
 */
export function watchWorkerBill(bus: EventBus, endpointId: string, initial: Iterable<{ id: string; state: WorkerState }>, rule: BillingRule, nowMs: number): (nowMs: number) => WorkerBill {
  const meter = new WorkerMeter(rule.workersMin);
  const open = new Map<string, Open>();
  const msByState: Record<string, number> = {};
  const add = (o: Open, toMs: number) => {
    const ms = toMs - o.sinceMs;
    if (ms <= 0) return;
    msByState[o.state] = (msByState[o.state] ?? 0) + ms;
    if (isBilled(o.state)) o.billedMs += ms;
  };
  for (const w of initial) {
    open.set(w.id, { state: w.state, sinceMs: nowMs, billedMs: 0 });
    meter.start(w.id, nowMs);
  }
  bus.onWorkerState((e) => {
    if (e.endpointId !== endpointId) return;
    const o = open.get(e.workerId);
    if (o === undefined) {
      if (e.to === 'stopped') return;
      open.set(e.workerId, { state: e.to, sinceMs: e.atMs, billedMs: 0 });
      meter.start(e.workerId, e.atMs);
      return;
    }
    add(o, e.atMs);
    if (e.to === 'stopped') {
      open.delete(e.workerId);
      meter.stop(e.workerId, e.atMs, o.billedMs);
    } else {
      o.state = e.to;
      o.sinceMs = e.atMs;
    }
  });
  return (endMs) => {
    const byState = { ...msByState };
    const alive: { id: string; billedMs: number }[] = [];
    for (const [id, o] of open) {
      const ms = Math.max(0, endMs - o.sinceMs);
      if (ms > 0) byState[o.state] = (byState[o.state] ?? 0) + ms;
      alive.push({ id, billedMs: aliveBilledMs(o.billedMs + (isBilled(o.state) ? ms : 0), o.state, o.sinceMs, endMs, rule.idleTailMs) });
    }
    return {
      activeSeconds: rule.workersMin * Math.ceil(endMs / 1000),
      flexSeconds: meter.flexWith(alive),
      workersStarted: meter.started,
      secondsByState: secondsOf(byState),
    };
  };
}
