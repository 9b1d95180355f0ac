/**
 * Admin routes of `loadlab serve`, no `/v2` prefix, valid key required:
 * `GET /_sim/clock` → `{"now"}`; `POST /_sim/advance {"ms": N}` (manual clock only, else 409);
 * `POST /_sim/occupancy {"endpoint": id}` → time-integrated queue and workers per 10 s, and an LLM
 * endpoint's engines (manual clock only).
 */
import { authorized } from '../api/auth.js';
import type { ApiResponse } from '../api/types.js';
import type { Simulator } from '../sim/simulator.js';
import type { Clock } from './clock.js';
import { serverError } from './errors.js';
import type { ManualClock } from './manual-clock.js';
import { OCCUPANCY_SERIES } from '../sim/occupancy.js';

/** Largest single advance: one year of virtual time (ms). */
export const MAX_ADVANCE_MS = 365 * 24 * 3600 * 1000;
/** Largest admin request body (bytes). */
export const ADMIN_BODY_BYTES = 4096;

export interface AdminDeps {
  sim: Simulator;
  clock: Clock;
  keys: readonly string[];
}

export const ADMIN_PATHS = new Set(['/_sim/clock', '/_sim/advance', '/_sim/mark', '/_sim/occupancy']);
/** Most markers in one `POST /_sim/mark`. */
const MAX_MARKERS = 10_000;

/** Answers an admin request; async only for advance. */
export function admin(
  deps: AdminDeps,
  method: string,
  path: string,
  authorization: string | undefined,
  body: string | undefined,
): ApiResponse | Promise<ApiResponse> {
  if (!authorized(authorization, deps.keys)) return serverError('SRV_ERR_UNAUTHORIZED');
  if (path === '/_sim/clock') {
    if (method !== 'GET') return serverError('SRV_ERR_METHOD_NOT_ALLOWED', `${method} not allowed; use GET`);
    deps.clock.sync();
    // Manual clock: also the request counts a lockstep client waits on.
    const counts = deps.clock.kind === 'manual' ? (deps.clock as ManualClock).requests : undefined;
    return { status: 200, body: { now: deps.sim.nowMs, ...counts } };
  }
  if (method !== 'POST') return serverError('SRV_ERR_METHOD_NOT_ALLOWED', `${method} not allowed; use POST`);
  if (deps.clock.kind !== 'manual') return serverError('SRV_ERR_CLOCK_NOT_MANUAL');
  if (path === '/_sim/mark') {
    // `{"atMs": [t, …]}`: a lockstep client's timers, queued among the simulator's events (see ManualClock.mark).
    const at = markTimes(body);
    if (!at) return serverError('SRV_ERR_BAD_ADVANCE', `body must be {"atMs": [<virtual ms from 0 to ${MAX_ADVANCE_MS}>, …]} (at most ${MAX_MARKERS})`);
    const clock = deps.clock as ManualClock;
    clock.mark(at);
    return { status: 200, body: { now: deps.sim.nowMs, ...clock.requests } };
  }
  if (path === '/_sim/occupancy') {
    // `{"endpoint": "id"}`: the endpoint's occupancy since the server started (a lockstep run's windows.endpoint).
    const clock = deps.clock as ManualClock;
    const occ = clock.occupancy.get(endpointOf(body) ?? '');
    if (!occ) return serverError('SRV_ERR_BAD_ADVANCE', 'body must be {"endpoint": "<an endpoint id of this server>"}');
    const now = deps.sim.nowMs;
    const n = Math.max(1, Math.ceil(now / occ.windowMs));
    const areas = occ.areas(now, n);
    const engine = occ.engine?.areas(now, n);
    const gpus = occ.gpus?.areas(now, n);
    return {
      status: 200,
      body: { now, ...clock.requests, windowMs: occ.windowMs, series: OCCUPANCY_SERIES, areas, ...(engine ? { engine } : {}), ...(gpus ? { gpus } : {}) },
    };
  }
  const ms = advanceMs(body);
  if (ms === undefined) return serverError('SRV_ERR_BAD_ADVANCE', `body must be {"ms": <integer from 0 to ${MAX_ADVANCE_MS}>}`);
  const clock = deps.clock as ManualClock;
  // `{"ms": N, "until": "answer"}` stops after the first event a client can observe (lockstep runs).
  const until = (JSON.parse(body!) as { until?: unknown }).until === 'answer';
  return clock.advance(ms, until).then((now) => ({ status: 200, body: { now, ...clock.requests } }));
}

function endpointOf(body: string | undefined): string | undefined {
  try {
    const v = (JSON.parse(body ?? '') as { endpoint?: unknown }).endpoint;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function markTimes(body: string | undefined): number[] | undefined {
  try {
    const v = (JSON.parse(body ?? '') as { atMs?: unknown }).atMs;
    if (!Array.isArray(v) || v.length > MAX_MARKERS) return undefined;
    return v.every((t) => typeof t === 'number' && t >= 0 && t <= MAX_ADVANCE_MS) ? (v as number[]) : undefined;
  } catch {
    return undefined;
  }
}

function advanceMs(body: string | undefined): number | undefined {
  if (!body) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const ms = (v as { ms?: unknown }).ms;
  return typeof ms === 'number' && Number.isInteger(ms) && ms >= 0 && ms <= MAX_ADVANCE_MS ? ms : undefined;
}
