/**
 * What a run's workers are billed (the cost model of `loadlab plan` and of `loadlab run`'s
 * `workers` section), from their lifetimes (the simulator's
 * `worker.state` events, Target.watchWorkers). Pure: no I/O, no clock. Prices: prices.ts.
 *
 * - Active workers (`workersMin` of them) are billed for the whole run, whatever they do, at the
 *   active price.
 * - Every other worker is a flex worker, billed per second, rounded up, from its start (the cold
 *   start included) to its stop (the idle-timeout tail included, even past the run's end for a
 *   worker idle when the run ended), at the flex price. Time spent
 *   throttled (wanted, but no host had room) is not billed.
 * - Which worker is active: going through starts and stops in time order, a worker that starts
 *   while fewer than `workersMin` active workers are alive takes an active slot; a stopped active
 *   worker frees its slot for the next worker to start.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { WorkerState } from '../contract/sim-events.js';

/** One worker's life on the endpoint (Target.watchWorkers in load/targets/target.ts). */
export interface WorkerLifetime {
  workerId: string;
  /** When it started (its first state: initializing, or throttled when no host had room). */
  startMs: number;
  /** When it stopped; null: still alive when the lifetimes were read. */
  stopMs: number | null;
  /** ms spent in each state up to its stop (or the read). */
  msByState: Partial<Record<WorkerState, number>>;
  /** A worker still alive at the read: its state then, and since when. */
  alive?: { state: WorkerState; sinceMs: number };
}

/** What a run's workers are billed for. */
export interface WorkerBill {
  /** workersMin × the run's length, rounded up to whole seconds. */
  activeSeconds: number;
  /** Σ over flex workers of their billed time, each rounded up to whole seconds. */
  flexSeconds: number;
  /** Workers started in all (active and flex). */
  workersStarted: number;
  /** Worker-seconds in each state, over all workers (not rounded). */
  secondsByState: Record<string, number>;
}

const BILLED_STATES = ['initializing', 'idle', 'running', 'unhealthy'] as const;

/**
 * The billed seconds of a run `runMs` long with `workersMin` active workers. `idleTailMs`: how
 * long a flex worker idle at the run's end stays before it stops (idleTimeoutMs; 0 under
 * REQUEST_COUNT, which stops surplus workers at once): billed too, though the run ended first.
 */
export function billWorkers(lives: readonly WorkerLifetime[], workersMin: number, runMs: number, idleTailMs = 0): WorkerBill {
  const active = activeWorkers(lives, workersMin);
  let flexSeconds = 0;
  const byState: Record<string, number> = {};
  for (const l of lives) {
    let billedMs = 0;
    for (const [state, ms] of Object.entries(l.msByState)) {
      byState[state] = (byState[state] ?? 0) + ms / 1000;
      if ((BILLED_STATES as readonly string[]).includes(state)) billedMs += ms;
    }
    if (active.has(l.workerId)) continue;
    if (l.alive?.state === 'idle') billedMs += Math.max(0, l.alive.sinceMs + idleTailMs - runMs);
    flexSeconds += Math.ceil(billedMs / 1000);
  }
  const secondsByState: Record<string, number> = {};
  for (const k of Object.keys(byState).sort()) secondsByState[k] = byState[k]!;
  return { activeSeconds: workersMin * Math.ceil(runMs / 1000), flexSeconds, workersStarted: lives.length, secondsByState };
}

/** The ids of the workers that held an active slot (see the file's comment). */
function activeWorkers(lives: readonly WorkerLifetime[], workersMin: number): Set<string> {
  // Stops before starts at the same ms: a slot freed in a ms is taken by a start in it.
  const events = lives.flatMap((l, i) => [
    { at: l.startMs, stop: false, i },
    ...(l.stopMs === null ? [] : [{ at: l.stopMs, stop: true, i }]),
  ]).sort((a, b) => a.at - b.at || Number(b.stop) - Number(a.stop) || a.i - b.i);
  const active = new Set<string>();
  let alive = 0;
  for (const e of events) {
    const id = lives[e.i]!.workerId;
    if (e.stop) {
      if (active.has(id)) alive--;
    } else if (alive < workersMin) {
      active.add(id);
      alive++;
    }
  }
  return active;
}

/** billWorkers with the endpoint's rule for the idle tail: idleTimeoutMs, but 0 under REQUEST_COUNT (it stops surplus workers at once). */
export function billEndpoint(lives: readonly WorkerLifetime[], ep: Pick<EndpointConfig, 'workersMin' | 'idleTimeoutMs' | 'scaler'>, runMs: number): WorkerBill {
  return billWorkers(lives, ep.workersMin, runMs, ep.scaler.type === 'REQUEST_COUNT' ? 0 : ep.idleTimeoutMs);
}
