/**
 * Job times and cold starts of a load-balancing endpoint, from what a run saw of it
 * (RunResult.observed.balancer and its worker table, balancer-observations.ts). There are no
 * status bodies: a request is timed by the client from its send to its answer.
 *
 * - **Job times**: the `http` requests that cannot have waited for a worker: not their worker's
 *   first (a cold worker's first request waits for its start), and sent with no more of the run's
 *   requests in flight than the workers surely ready then could take (`concurrency` each). A
 *   worker is surely ready from its first answer to its last request's end. Requests of other
 *   clients of the endpoint are not seen: they may have made some of these wait. Without
 *   `/health` (no `concurrency`), every request but a worker's first counts: waits included.
 * - **Cold starts**: each worker's first request, less the median time of the requests of its
 *   kind that did not wait (the job it ran once started). With `/health` answers, only the first
 *   requests sent when the endpoint had no idle worker, none starting and none waiting, as on a
 *   queue endpoint (cold-starts.ts): that request waited for a worker started for it.
 */
import { partitionPoint } from '../lib/partition-point.js';
import type { ObservedEndpoint } from '../report/run-result.js';
import { quantile } from './fit-duration.js';
import { stateAt, type HealthRow } from './health-rows.js';

export interface BalancerSamples {
  /** Times to response (ms) of the `http` requests that did not wait. */
  jobMs: number[];
  /** `http` requests kept in observed.balancer (a uniform sample of those served). */
  httpKept: number;
  coldStartMs: number[];
  /** Workers the answers named. */
  workersSeen: number;
  /** Whether `/health` answers picked the cold starts (else every worker's first request counted). */
  fromHealth: boolean;
}

type Obs = ObservedEndpoint & { balancer: NonNullable<ObservedEndpoint['balancer']> };

/** `concurrency`: requests a worker takes (from /health); undefined: unknown, and every request but a worker's first counts. */
export function balancerSamples(obs: Obs, rows: readonly HealthRow[], concurrency: number | undefined): BalancerSamples {
  const w = table(obs.workers, ['firstSentMs', 'firstResponseMs', 'lastEndMs', 'firstHttp']);
  const r = table(obs.balancer, ['sentMs', 'responseMs', 'inFlightSent', 'worker', 'http']);
  const readyAt = w.map((x) => x[0]! + x[1]!).sort((a, b) => a - b);
  const ends = w.map((x) => x[2]!).sort((a, b) => a - b);
  const ready = (t: number): number => partitionPoint(readyAt.length, (i) => readyAt[i]! <= t) - partitionPoint(ends.length, (i) => ends[i]! < t);
  const warm: [number[], number[]] = [[], []];
  let httpKept = 0;
  for (const [sentMs, responseMs, inFlight, worker, http] of r) {
    if (http === 1) httpKept++;
    const own = w[worker!];
    if (own === undefined || own[0] === sentMs) continue;
    if (concurrency === undefined || inFlight! <= concurrency * ready(sentMs!)) warm[http === 1 ? 1 : 0].push(responseMs!);
  }
  const base = warm.map((xs) =>
    xs.length
      ? quantile(
          xs.slice().sort((a, b) => a - b),
          0.5,
        )
      : undefined,
  );
  const coldStartMs: number[] = [];
  for (const [sentMs, responseMs, , firstHttp] of w) {
    const b = base[firstHttp === 1 ? 1 : 0];
    if (b === undefined) continue;
    if (rows.length) {
      const s = stateAt(rows, sentMs!);
      if (!s || s.idle !== 0 || s.initializing !== 0 || s.inQueue !== 0) continue;
    }
    coldStartMs.push(Math.max(0, Math.round(responseMs! - b)));
  }
  return { jobMs: warm[1].map((x) => Math.round(x)), httpKept, coldStartMs, workersSeen: w.length, fromHealth: rows.length > 0 };
}

/** The named columns of each row of `t`, in the order given (a missing column reads NaN). */
function table(t: { columns: string[]; rows: number[][] }, names: readonly string[]): number[][] {
  const cols = names.map((n) => t.columns.indexOf(n));
  return t.rows.map((row) => cols.map((c) => (c >= 0 ? row[c]! : NaN)));
}
