/**
 * What a run against a load-balancing endpoint at a URL sees of it, kept raw for `loadlab
 * calibrate` (RunResult.observed.workers and .balancer): there are no status bodies, so every
 * request a worker served is timed by the client, and the answer's `X-Runpod-Worker-Id` names the
 * worker. Per worker: its first request's send and time to response (a cold worker's first
 * request waited for its start), its last request's end and its request count. Per request (a
 * uniform sample): its send, time to response, the run's own requests to the endpoint in flight
 * when it was sent, its worker and its kind (a custom worker's `http` request, or a chat
 * completion). Bounded as the queue endpoint's observations are.
 */
import type { RandomStream } from '../../lib/random.js';
import type { ObservedEndpoint } from '../../report/run-result.js';
import { round3 as round } from '../../lib/time-averages.js';
import { MAX_SAMPLES, MAX_WORKERS } from './observation-limits.js';
import { Reservoir } from './reservoir.js';

/**
 * A worker row: `firstSentMs` (run clock), `firstResponseMs` (ms after that send), `lastEndMs`
 * (run clock), `jobs` (requests it served), `firstHttp` (1: its first request was an `http` one,
 * 0: a chat completion).
 */
export const BALANCER_WORKER_COLUMNS = ['firstSentMs', 'firstResponseMs', 'lastEndMs', 'jobs', 'firstHttp'] as const;
/**
 * A request row: `sentMs` (run clock), `responseMs` (ms after the send: the whole answer, or a
 * stream's first content chunk), `inFlightSent` (the run's requests to the endpoint in flight when
 * it went out, itself included), `worker` (its row in the worker table; -1: not kept), `http`
 * (1: an `http` request, 0: a chat completion).
 */
export const BALANCER_REQUEST_COLUMNS = ['sentMs', 'responseMs', 'inFlightSent', 'worker', 'http'] as const;

/** A request a worker served (BalancerObservations.served). */
export interface ServedRequest {
  kind: 'http' | 'chat';
  sentMs: number;
  /** Its answer, or a stream's first content chunk (run clock). */
  responseAtMs: number;
  /** When it ended (run clock). */
  endMs: number;
  inFlightSent: number;
  /** The answer's `x-runpod-worker-id`; undefined: none. */
  workerId: string | undefined;
}

interface WorkerSeen {
  firstSentMs: number;
  firstResponseMs: number;
  lastEndMs: number;
  jobs: number;
  firstHttp: number;
}

export class BalancerObservations {
  /** Requests served (a uniform sample of MAX_SAMPLES of them when more were served). */
  private readonly requests: Reservoir<{ row: number[]; workerId: string | undefined }>;
  private readonly workers = new Map<string, WorkerSeen>();
  private workersDropped = 0;

  /** `rng`: draws which requests stay once more than MAX_SAMPLES were served. */
  constructor(rng: RandomStream) {
    this.requests = new Reservoir(MAX_SAMPLES, rng);
  }

  served(r: ServedRequest): void {
    const responseMs = Math.max(0, r.responseAtMs - r.sentMs);
    const http = r.kind === 'http' ? 1 : 0;
    this.requests.add({ row: [round(r.sentMs), round(responseMs), r.inFlightSent, -1, http], workerId: r.workerId });
    if (r.workerId === undefined || r.workerId === '') return;
    const w = this.workers.get(r.workerId);
    if (w === undefined) {
      if (this.workers.size >= MAX_WORKERS) return void this.workersDropped++;
      this.workers.set(r.workerId, { firstSentMs: r.sentMs, firstResponseMs: responseMs, lastEndMs: r.endMs, jobs: 1, firstHttp: http });
      return;
    }
    w.jobs++;
    // Its first request by send: the one a cold worker's start held (answers may end out of order).
    if (r.sentMs < w.firstSentMs) {
      w.firstSentMs = r.sentMs;
      w.firstResponseMs = responseMs;
      w.firstHttp = http;
    }
    if (r.endMs > w.lastEndMs) w.lastEndMs = r.endMs;
  }

  /** The worker table and the requests, each request naming its worker's row. */
  result(): { workers: ObservedEndpoint['workers']; balancer: NonNullable<ObservedEndpoint['balancer']> } {
    const ids = [...this.workers.keys()].sort((a, b) => this.workers.get(a)!.firstSentMs - this.workers.get(b)!.firstSentMs);
    const index = new Map(ids.map((id, i) => [id, i]));
    const workerRows = ids.map((id) => {
      const w = this.workers.get(id)!;
      return [round(w.firstSentMs), round(w.firstResponseMs), round(w.lastEndMs), w.jobs, w.firstHttp];
    });
    const rows = this.requests.items().map(({ row, workerId }) => {
      const out = row.slice();
      out[3] = workerId === undefined ? -1 : (index.get(workerId) ?? -1);
      return out;
    });
    return {
      workers: { columns: [...BALANCER_WORKER_COLUMNS], rows: workerRows, ...(this.workersDropped ? { dropped: this.workersDropped } : {}) },
      balancer: { count: this.requests.count, columns: [...BALANCER_REQUEST_COLUMNS], rows },
    };
  }
}
