/**
 * The documented limits of the scenario's endpoint (defaults, per-operation overrides and scale,
 * as the simulator applies them) and the headroom section: peaks seen against each limit.
 */
import type { Headroom, HeadroomRow } from '../../report/run-result.js';
import type { EndpointConfig } from '../../contract/endpoint-config.js';
import { DEFAULT_LIMITS, OPERATIONS, type Operation } from '../../contract/operations.js';
import type { LimitView } from './cause-inference.js';
import type { Recorder } from './recorder.js';
import type { SendRates } from './send-rate.js';

export function limitsOf(cfg: EndpointConfig): Record<Operation, LimitView> {
  const l = cfg.limits;
  const out = {} as Record<Operation, LimitView>;
  for (const op of OPERATIONS) {
    const o = l.operations[op] ?? {};
    const rate = o.rate !== undefined ? o.rate : DEFAULT_LIMITS[op].rate;
    const conc = o.concurrency !== undefined ? o.concurrency : DEFAULT_LIMITS[op].concurrency;
    const scaled = (x: number | null) => (!l.enabled || x === null ? null : Math.max(1, Math.round(x * l.scale)));
    out[op] = { rate: scaled(rate), concurrency: scaled(conc) };
  }
  return out;
}

/** Queue depth above which job-creating calls answer 429: more than `queueMin` and more than workersMax × `queuePerWorker`. */
export function queueThrottleAt(cfg: EndpointConfig): number {
  return Math.max(cfg.limits.queueMin, cfg.workersMax * cfg.limits.queuePerWorker) + 1;
}

/** `n` requests per the limiter's window (`limits.windowMs`), per 10 s: the unit the report shows rates in. */
export function perTenSeconds(cfg: EndpointConfig, n: number): number {
  return Math.round((n * 10_000) / cfg.limits.windowMs);
}

/**
 * Peak rate, concurrency and queue depth against each limit. The peak rate is counted the way
 * the endpoint's limiter counts (`limits.window`): the most requests in any window-long interval
 * (sliding, the default) or in one aligned window (fixed); both it and the limit are shown per 10 s.
 */
export function headroom(rec: Recorder, rates: SendRates, cfg: EndpointConfig): Headroom {
  const limits = limitsOf(cfg);
  const per10s = (n: number) => perTenSeconds(cfg, n);
  const operations: HeadroomRow[] = [];
  for (const name of [...rec.ops.keys()].sort()) {
    const o = rec.ops.get(name)!;
    const r = rates.of(name);
    const lim = limits[name as Operation] ?? { rate: null, concurrency: null };
    operations.push({
      operation: name,
      peakPer10s: per10s(cfg.limits.window === 'fixed' ? r.fixedPeak : r.slidingPeak),
      ratePer10s: lim.rate === null ? null : per10s(lim.rate),
      peakInFlight: o.peakInFlight,
      concurrency: lim.concurrency,
    });
  }
  return {
    operations,
    peakQueueDepth: rec.peakQueueDepth < 0 ? null : rec.peakQueueDepth,
    queueThrottleAt: queueThrottleAt(cfg),
    peakRunningWorkers: rec.peakRunning < 0 ? null : rec.peakRunning,
    workersMax: cfg.workersMax,
  };
}
