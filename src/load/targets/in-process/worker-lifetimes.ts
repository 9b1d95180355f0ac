/**
 * Every worker's life, from the simulator's `worker.state` events (sim-events.ts): when it
 * started, when it stopped, and how long it spent in each state. The API's answers do not show
 * workers, so only the in-process target can offer it (Target.watchWorkers); the cost model
 * (report/worker-bill.ts) bills these lifetimes. It listens to `worker.state` events alone
 * (EventBus.onWorkerState, a few per worker): the simulator builds no other domain event for it.
 */
import type { WorkerState } from '../../../contract/sim-events.js';
import type { EventBus } from '../../../sim/event-bus.js';
import type { WorkerLifetime } from '../../../report/worker-bill.js';

interface Open {
  life: WorkerLifetime;
  state: WorkerState;
  sinceMs: number;
}

/**
 * Listens on `bus`; the returned function gives every worker seen so far, in start order, with
 * the spans of workers still alive closed at `nowMs` (their `stopMs` stays null, `alive` says
 * their state). Call before the simulator runs: a worker first seen leaving a state (one of the
 * workersMin the simulator started when it was built) started at 0.
 */
export function watchWorkerLifetimes(bus: EventBus, endpointId: string): (nowMs: number) => WorkerLifetime[] {
  const lives: WorkerLifetime[] = [];
  const open = new Map<string, Open>();
  bus.onWorkerState((e) => {
    if (e.endpointId !== endpointId) return;
    let o = open.get(e.workerId);
    if (o === undefined && e.from !== 'none') {
      // Started before the watch began: the simulator starts workersMin workers when it is built, at 0.
      const life: WorkerLifetime = { workerId: e.workerId, startMs: 0, stopMs: null, msByState: {} };
      lives.push(life);
      o = { life, state: e.from, sinceMs: 0 };
      open.set(e.workerId, o);
    }
    if (o === undefined) {
      if (e.to === 'stopped') return;
      const life: WorkerLifetime = { workerId: e.workerId, startMs: e.atMs, stopMs: null, msByState: {} };
      lives.push(life);
      o = { life, state: e.to, sinceMs: e.atMs };
      open.set(e.workerId, o);
      return;
    }
    add(o, e.atMs);
    if (e.to === 'stopped') {
      o.life.stopMs = e.atMs;
      open.delete(e.workerId);
    } else {
      o.state = e.to;
      o.sinceMs = e.atMs;
    }
  });
  return (nowMs) => lives.map((l) => {
    const o = open.get(l.workerId);
    if (o === undefined) return { ...l, msByState: { ...l.msByState } };
    const copy: Open = { life: { ...l, msByState: { ...l.msByState } }, state: o.state, sinceMs: o.sinceMs };
    add(copy, nowMs);
    copy.life.alive = { state: o.state, sinceMs: o.sinceMs };
    return copy.life;
  });
}

function add(o: Open, toMs: number): void {
  const ms = toMs - o.sinceMs;
  if (ms > 0) o.life.msByState[o.state] = (o.life.msByState[o.state] ?? 0) + ms;
}
