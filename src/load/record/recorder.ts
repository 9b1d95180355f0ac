/**
 * Collects what a run observes — every request, answer, job outcome, webhook and stream chunk —
 * as counters, HDR histograms and per-window columns. Times are the target's clock (virtual ms
 * in-process). `sections()` turns it into the RunResult parts it owns.
 */
import { encode } from '../../report/histogram.js';
import { MsHistogram } from './ms-histogram.js';
import type { ArrivalStats, FlowStats, JobStats, LimitCauseName, OperationStats, StreamStats, WebhookStats } from '../../report/run-result.js';
export { OpAcc } from './op-acc.js';
import type { TargetResponse } from '../targets/target.js';
import { balancerCause } from './balancer-cause.js';
import { COL, TimelineRecorder } from './timeline.js';
import { BALANCER_COLUMN } from '../../report/timeline-columns.js';
import { Tally } from './tally.js';
import { JobLedger } from './job-ledger.js';
import { JobTimes } from './job-times.js';
import { StreamMetrics } from './stream-metrics.js';
import { FlowTurns } from './flow-turns.js';
import { OpAcc } from './op-acc.js';
import { HealthSamples } from './health-samples.js';
import type { HealthBodyRead } from '../../contract/health-body.js';
import type { EndpointWatcher } from '../targets/target.js';
import type { SendTimes } from './send-times.js';
import type { EndpointObservations } from './endpoint-observations.js';

/** A job's outcome as a client read it. */
export interface JobOutcome {
  id: string | undefined;
  /** The flow whose session read it. */
  flow: string;
  /** The session's intended submission time → `atMs`. */
  turnaroundMs: number;
  /** When the client read it (target clock). */
  atMs: number;
  status: string;
  delayTimeMs: number | undefined;
  executionTimeMs: number | undefined;
}

const LIMITED_COL: Record<LimitCauseName, number> = {
  rate: COL.limitedRate,
  concurrency: COL.limitedConcurrency,
  queue: COL.limitedQueue,
  unknown: COL.limitedUnknown,
};

/** One flow's sessions and their outcomes. */
export interface FlowAcc {
  meta: Omit<FlowStats, 'sessions' | 'outcomes'>;
  sessions: number;
  outcomes: Tally;
}

export class Recorder {
  readonly ops = new Map<string, OpAcc>();
  readonly tl: TimelineRecorder;
  inFlight = 0;
  private readonly arrivals = { intended: 0, sent: 0, late: 0, dropped: 0, sendLagMs: new MsHistogram() };
  private readonly flows = new Map<string, FlowAcc>();
  /** Every accepted job once, by category (job-ledger.ts). */
  readonly ledger = new JobLedger();
  private readonly jobs = {
    retentionExpiriesSeen: 0,
    retriedByClient: 0,
    cancelLatencyMs: new MsHistogram(),
    cancelled: 0,
  };
  private readonly webhooks = { attempts: 0, delivered: 0, failedAttempts: 0, retries: 0, gaveUp: 0, latenessMs: new MsHistogram() };
  private readonly streams = { calls: 0, chunks: 0 };
  /** Per-flow job times, whole-run and per histogram window. */
  readonly jobTimes: JobTimes;
  /** Per streaming flow: TTFT, ITL, TPOT, tokens (stream-metrics.ts). */
  readonly streamMetrics: StreamMetrics;
  peakQueueDepth = -1;
  peakRunning = -1;
  /** The client's `/health` answers per histogram window. */
  readonly health: HealthSamples;
  /** The target's own view of the endpoint over time (Target.watchEndpoint), preferred to `health`. */
  endpointWatcher: EndpointWatcher | undefined;
  /** Times from the actual send, where a send can be late (send-times.ts); undefined: not kept. */
  sendTimes: SendTimes | undefined = undefined;
  /** The endpoint's workers and `/health` kept raw for `loadlab calibrate` (HTTP targets); undefined: not kept. */
  observations: EndpointObservations | undefined = undefined;

  /** `windowMs`: the timeline's; `histWindowMs`: the per-window histograms' (window-size.ts). */
  constructor(
    readonly windowMs: number,
    private readonly lateAfterMs: number,
    readonly histWindowMs = windowMs,
  ) {
    this.tl = new TimelineRecorder(windowMs);
    this.jobTimes = new JobTimes(histWindowMs);
    this.streamMetrics = new StreamMetrics(histWindowMs);
    this.health = new HealthSamples(histWindowMs);
  }

  /** Registers a flow; its accumulator is for the flow's driver (sessionStarted, sessionEnded). */
  flow(name: string, meta: Omit<FlowStats, 'sessions' | 'outcomes'>): FlowAcc {
    const f = { meta, sessions: 0, outcomes: new Tally() };
    this.flows.set(name, f);
    return f;
  }

  /** Per multi-turn flow: its sessions' turns and times (flow-turns.ts). */
  private readonly turns = new Map<string, FlowTurns>();

  /** Registers a multi-turn flow (an openai-chat flow with `turns`). */
  flowTurns(name: string): FlowTurns {
    const t = new FlowTurns();
    this.turns.set(name, t);
    return t;
  }

  /** The accumulator of operation `name` (hot callers look it up once per request). */
  op(name: string): OpAcc {
    let o = this.ops.get(name);
    if (!o) {
      const lb = name === 'lb';
      this.ops.set(name, (o = new OpAcc(this.histWindowMs, lb)));
      if (lb) this.tl.balancer = true;
    }
    return o;
  }

  /** A request leaves the client at `sentMs` (intended at `intendedMs`). */
  sent(op: string, intendedMs: number, sentMs: number): void {
    this.sentOp(this.op(op), intendedMs, sentMs);
  }

  sentOp(o: OpAcc, intendedMs: number, sentMs: number): void {
    o.requests++;
    o.sentAt(sentMs);
    const tl = this.tl;
    const i = tl.window(sentMs);
    tl.addAt(COL.requests, i);
    tl.maxAt(COL.inFlightMax, i, ++this.inFlight);
    this.arrivals.sendLagMs.record(sentMs - intendedMs);
  }

  answered(op: string, intendedMs: number, sentMs: number, endMs: number, res: TargetResponse, cause: LimitCauseName | undefined): void {
    this.answeredOp(this.op(op), intendedMs, sentMs, endMs, res, cause);
  }

  answeredOp(o: OpAcc, intendedMs: number, sentMs: number, endMs: number, res: TargetResponse, cause: LimitCauseName | undefined): void {
    this.inFlight--;
    const status = res.status;
    o.answeredAt(endMs, status);
    o.responseMs.record(endMs - intendedMs);
    o.windows.record(endMs, endMs - intendedMs);
    o.serviceMs.record(endMs - sentMs);
    this.sendTimes?.answered(o, endMs, endMs - sentMs);
    if (status >= 200 && status < 300) this.tl.add(COL.responses2xx, endMs);
    else if (status === 429) {
      const c = cause ?? 'unknown';
      o.limited[c]++;
      this.tl.add(LIMITED_COL[c], endMs);
    } else if (o.balancerFailed !== undefined && status >= 400) {
      const b = balancerCause(res);
      if (b !== undefined) {
        o.balancerFailed[b]++;
        this.tl.add(COL[BALANCER_COLUMN[b]], endMs);
      }
    } else if (res.timedOut) {
      o.clientTimeouts++;
      this.tl.add(COL.clientTimeouts, endMs);
    } else if (status === 0) o.transportErrors++;
  }

  retried429(op: string): void {
    this.op(op).retried429++;
  }

  arrival(): void {
    this.arrivals.intended++;
  }

  /** The first request of a session went out `lagMs` after its intended time. */
  arrivalSent(atMs: number, lagMs: number): void {
    this.arrivals.sent++;
    if (lagMs > this.lateAfterMs) {
      this.arrivals.late++;
      this.tl.add(COL.late, atMs);
    }
  }

  dropped(atMs: number): void {
    this.arrivals.dropped++;
    this.tl.add(COL.dropped, atMs);
  }

  sessionStarted(flow: FlowAcc): void {
    flow.sessions++;
  }

  /** A session ended; `job`: the API had accepted its job (which then ends in this category). */
  sessionEnded(flow: FlowAcc, outcome: string, job: boolean): void {
    flow.outcomes.add(outcome);
    if (job) this.ledger.ended(outcome);
  }

  jobAccepted(): void {
    this.ledger.accepted++;
  }

  /** Sees every terminal status read, with the job id (lockstep and determinism checks). */
  onJob: ((j: JobOutcome) => void) | undefined;

  /**
   * A terminal status body was read for a job (once per run of it: a retried job may end twice;
   * `jobs.finalStatus` counts the status its session ended on, once per job). `intendedMs`: the
   * session's intended submission time; `sentMs`: when its first request went out; `workerId`: the
   * body's, if any.
   */
  jobTerminal(
    flow: string,
    intendedMs: number,
    atMs: number,
    status: string,
    delayTimeMs: number | undefined,
    executionTimeMs: number | undefined,
    id?: string,
    sentMs = intendedMs,
    workerId?: unknown,
  ): void {
    const turnaroundMs = atMs - intendedMs;
    this.observations?.job(sentMs, status, delayTimeMs, executionTimeMs, workerId);
    this.sendTimes?.turnaround(flow, atMs, atMs - sentMs);
    this.onJob?.({ id, flow, turnaroundMs, atMs, status, delayTimeMs, executionTimeMs });
    this.jobTimes.add(flow, atMs, turnaroundMs, delayTimeMs, executionTimeMs, id);
    if (status === 'COMPLETED') this.tl.add(COL.jobsCompleted, atMs);
    else if (status === 'FAILED' || status === 'TIMED_OUT') this.tl.add(COL.jobsFailed, atMs);
  }

  expirySeen(atMs: number): void {
    this.jobs.retentionExpiriesSeen++;
    this.tl.add(COL.expiriesSeen, atMs);
  }

  retriedByClient(): void {
    this.jobs.retriedByClient++;
  }

  cancelled(latencyMs: number): void {
    this.jobs.cancelled++;
    this.jobs.cancelLatencyMs.record(latencyMs);
  }

  webhookAttempt(atMs: number, attempt: number, ok: boolean, lastAttempt: boolean, latenessMs: number | undefined): void {
    const w = this.webhooks;
    w.attempts++;
    this.tl.add(COL.webhookAttempts, atMs);
    if (attempt > 1) w.retries++;
    if (ok) {
      w.delivered++;
      if (latenessMs !== undefined) w.latenessMs.record(latenessMs);
    } else {
      w.failedAttempts++;
      this.tl.add(COL.webhookFailures, atMs);
      if (lastAttempt) {
        w.gaveUp++;
        this.tl.add(COL.webhookGaveUp, atMs);
      }
    }
  }

  stream(atMs: number, chunks: number): void {
    this.streams.calls++;
    this.streams.chunks += chunks;
    if (chunks) this.tl.add(COL.streamChunks, atMs, chunks);
  }

  endpointSeen(atMs: number, queueDepth: number, running: number): void {
    this.tl.max(COL.queueDepthMax, atMs, queueDepth);
    if (queueDepth > this.peakQueueDepth) this.peakQueueDepth = queueDepth;
    if (running > this.peakRunning) this.peakRunning = running;
  }

  /** A `/health` answer read at `atMs` (peaks, and the sampled `windows.endpoint`). */
  healthSeen(atMs: number, b: HealthBodyRead): void {
    this.health.add(atMs, b);
    this.observations?.health(atMs, b);
    const q = b.jobs?.inQueue;
    if (typeof q === 'number') {
      const r = b.workers?.running;
      this.endpointSeen(atMs, q, typeof r === 'number' ? r : 0);
    }
  }

  sections(): {
    operations: Record<string, OperationStats>;
    flows: Record<string, FlowStats>;
    jobs: JobStats;
    webhooks: WebhookStats;
    streams: StreamStats;
    arrivals: ArrivalStats;
  } {
    const operations: Record<string, OperationStats> = {};
    for (const name of [...this.ops.keys()].sort()) {
      const o = this.ops.get(name)!;
      operations[name] = {
        requests: o.requests,
        byStatus: sortedRecord(o.byStatus),
        limited: { ...o.limited },
        ...(o.balancerFailed ? { balancerFailed: { ...o.balancerFailed } } : {}),
        retried429: o.retried429,
        clientTimeouts: o.clientTimeouts,
        transportErrors: o.transportErrors,
        responseMs: encode(o.responseMs.hdr()),
        serviceMs: encode(o.serviceMs.hdr()),
      };
    }
    const flows: Record<string, FlowStats> = {};
    for (const [name, f] of this.flows) {
      const stream = this.streamMetrics.stats(name);
      const turns = this.turns.get(name)?.stats();
      flows[name] = {
        ...f.meta,
        sessions: f.sessions,
        outcomes: sortedRecord(f.outcomes.toMap()),
        jobs: this.jobTimes.stats(name),
        ...(stream ? { stream } : {}),
        ...(turns ? { turns } : {}),
      };
    }
    const j = this.jobs;
    const categories = this.ledger.categories();
    return {
      operations,
      flows,
      jobs: {
        accepted: this.ledger.accepted,
        finalStatus: this.ledger.finalStatus(),
        outcomes: categories,
        purged: categories.purged ?? 0,
        queueDelayMs: encode(this.jobTimes.allFlows('queueDelayMs')),
        executionMs: encode(this.jobTimes.allFlows('executionMs')),
        retentionExpiriesSeen: j.retentionExpiriesSeen,
        retriedByClient: j.retriedByClient,
        cancelLatencyMs: encode(j.cancelLatencyMs.hdr()),
        cancelled: j.cancelled,
      },
      webhooks: { ...this.webhooks, latenessMs: encode(this.webhooks.latenessMs.hdr()) },
      streams: { ...this.streams },
      arrivals: { ...this.arrivals, sendLagMs: encode(this.arrivals.sendLagMs.hdr()) },
    };
  }
}

function sortedRecord(m: Map<string | number, number>): Record<string, number> {
  const entries = [...m].map(([k, v]) => [String(k), v] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(entries);
}
