/**
 * Collects what a run observes — every request, answer, job outcome, webhook and stream chunk —
 * as counters, HDR histograms and per-window columns. Times are the target's clock (virtual ms
 * in-process). `sections()` turns it into the RunResult parts it owns.
 */
import { encode } from '../report/histogram.js';
import { MsHistogram } from './ms-histogram.js';
import type { ArrivalStats, FlowStats, JobStats, LimitCauseName, OperationStats, StreamStats, WebhookStats } from '../report/run-result.js';
import type { TargetResponse } from './target.js';
import { TimelineRecorder, type CounterColumn } from './timeline-recorder.js';

/** A job's outcome as a client read it. */
export interface JobOutcome {
  id: string | undefined;
  /** When the client read it (target clock). */
  atMs: number;
  status: string;
  delayTimeMs: number | undefined;
  executionTimeMs: number | undefined;
}

interface OpAcc {
  requests: number;
  byStatus: Map<number, number>;
  limited: Record<LimitCauseName, number>;
  retried429: number;
  clientTimeouts: number;
  transportErrors: number;
  responseMs: MsHistogram;
  serviceMs: MsHistogram;
  /** Requests sent per window (headroom). */
  perWindow: number[];
  inFlight: number;
  peakInFlight: number;
}

const LIMITED_COL: Record<LimitCauseName, CounterColumn> = {
  rate: 'limitedRate', concurrency: 'limitedConcurrency', queue: 'limitedQueue', unknown: 'limitedUnknown',
};

export class Recorder {
  readonly ops = new Map<string, OpAcc>();
  readonly tl: TimelineRecorder;
  inFlight = 0;
  private readonly arrivals = { intended: 0, sent: 0, late: 0, dropped: 0, sendLagMs: new MsHistogram() };
  private readonly flows = new Map<string, { meta: Omit<FlowStats, 'sessions' | 'outcomes'>; sessions: number; outcomes: Map<string, number> }>();
  private readonly jobs = {
    accepted: 0, finalStatus: new Map<string, number>(), queueDelayMs: new MsHistogram(), executionMs: new MsHistogram(),
    retentionExpiriesSeen: 0, retriedByClient: 0, cancelLatencyMs: new MsHistogram(), cancelled: 0,
  };
  private readonly webhooks = { attempts: 0, delivered: 0, failedAttempts: 0, retries: 0, gaveUp: 0, latenessMs: new MsHistogram() };
  private readonly streams = { calls: 0, chunks: 0 };
  peakQueueDepth = -1;
  peakRunning = -1;

  constructor(readonly windowMs: number, private readonly lateAfterMs: number) {
    this.tl = new TimelineRecorder(windowMs);
  }

  flow(name: string, meta: Omit<FlowStats, 'sessions' | 'outcomes'>): void {
    this.flows.set(name, { meta, sessions: 0, outcomes: new Map() });
  }

  private op(name: string): OpAcc {
    let o = this.ops.get(name);
    if (!o) {
      o = {
        requests: 0, byStatus: new Map(), limited: { rate: 0, concurrency: 0, queue: 0, unknown: 0 }, retried429: 0,
        clientTimeouts: 0, transportErrors: 0, responseMs: new MsHistogram(), serviceMs: new MsHistogram(), perWindow: [], inFlight: 0, peakInFlight: 0,
      };
      this.ops.set(name, o);
    }
    return o;
  }

  /** A request leaves the client at `sentMs` (intended at `intendedMs`). */
  sent(op: string, intendedMs: number, sentMs: number): void {
    const o = this.op(op);
    o.requests++;
    const w = Math.floor(sentMs / this.windowMs);
    while (o.perWindow.length <= w) o.perWindow.push(0);
    o.perWindow[w]!++;
    if (++o.inFlight > o.peakInFlight) o.peakInFlight = o.inFlight;
    this.inFlight++;
    this.tl.add('requests', sentMs);
    this.tl.max('inFlightMax', sentMs, this.inFlight);
    this.arrivals.sendLagMs.record(sentMs - intendedMs);
  }

  answered(op: string, intendedMs: number, sentMs: number, endMs: number, res: TargetResponse, cause: LimitCauseName | undefined): void {
    const o = this.op(op);
    o.inFlight--;
    this.inFlight--;
    o.byStatus.set(res.status, (o.byStatus.get(res.status) ?? 0) + 1);
    o.responseMs.record(endMs - intendedMs);
    o.serviceMs.record(endMs - sentMs);
    if (res.status >= 200 && res.status < 300) this.tl.add('responses2xx', endMs);
    else if (res.status === 429) {
      const c = cause ?? 'unknown';
      o.limited[c]++;
      this.tl.add(LIMITED_COL[c], endMs);
    } else if (res.timedOut) {
      o.clientTimeouts++;
      this.tl.add('clientTimeouts', endMs);
    } else if (res.status === 0) o.transportErrors++;
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
      this.tl.add('late', atMs);
    }
  }

  dropped(atMs: number): void {
    this.arrivals.dropped++;
    this.tl.add('dropped', atMs);
  }

  sessionStarted(flow: string): void {
    this.flows.get(flow)!.sessions++;
  }

  sessionEnded(flow: string, outcome: string): void {
    const m = this.flows.get(flow)!.outcomes;
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
  }

  jobAccepted(): void {
    this.jobs.accepted++;
  }

  /** Sees every terminal status read, with the job id (lockstep and determinism checks). */
  onJob: ((j: JobOutcome) => void) | undefined;

  /** A terminal status body was read for a job (once per job and run of it). */
  jobTerminal(atMs: number, status: string, delayTimeMs: number | undefined, executionTimeMs: number | undefined, id?: string): void {
    this.onJob?.({ id, atMs, status, delayTimeMs, executionTimeMs });
    this.jobs.finalStatus.set(status, (this.jobs.finalStatus.get(status) ?? 0) + 1);
    if (delayTimeMs !== undefined) this.jobs.queueDelayMs.record(delayTimeMs);
    if (executionTimeMs !== undefined) this.jobs.executionMs.record(executionTimeMs);
    if (status === 'COMPLETED') this.tl.add('jobsCompleted', atMs);
    else if (status === 'FAILED' || status === 'TIMED_OUT') this.tl.add('jobsFailed', atMs);
  }

  expirySeen(atMs: number): void {
    this.jobs.retentionExpiriesSeen++;
    this.tl.add('expiriesSeen', atMs);
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
    if (attempt > 1) w.retries++;
    if (ok) {
      w.delivered++;
      if (latenessMs !== undefined) w.latenessMs.record(latenessMs);
    } else {
      w.failedAttempts++;
      this.tl.add('webhookFailures', atMs);
      if (lastAttempt) w.gaveUp++;
    }
  }

  stream(atMs: number, chunks: number): void {
    this.streams.calls++;
    this.streams.chunks += chunks;
    if (chunks) this.tl.add('streamChunks', atMs, chunks);
  }

  endpointSeen(atMs: number, queueDepth: number, running: number): void {
    this.tl.max('queueDepthMax', atMs, queueDepth);
    if (queueDepth > this.peakQueueDepth) this.peakQueueDepth = queueDepth;
    if (running > this.peakRunning) this.peakRunning = running;
  }

  sections(): { operations: Record<string, OperationStats>; flows: Record<string, FlowStats>; jobs: JobStats; webhooks: WebhookStats; streams: StreamStats; arrivals: ArrivalStats } {
    const operations: Record<string, OperationStats> = {};
    for (const name of [...this.ops.keys()].sort()) {
      const o = this.ops.get(name)!;
      operations[name] = {
        requests: o.requests, byStatus: sortedRecord(o.byStatus), limited: { ...o.limited }, retried429: o.retried429,
        clientTimeouts: o.clientTimeouts, transportErrors: o.transportErrors, responseMs: encode(o.responseMs.hdr()), serviceMs: encode(o.serviceMs.hdr()),
      };
    }
    const flows: Record<string, FlowStats> = {};
    for (const [name, f] of this.flows) flows[name] = { ...f.meta, sessions: f.sessions, outcomes: sortedRecord(f.outcomes) };
    const j = this.jobs;
    return {
      operations,
      flows,
      jobs: {
        accepted: j.accepted, finalStatus: sortedRecord(j.finalStatus), queueDelayMs: encode(j.queueDelayMs.hdr()), executionMs: encode(j.executionMs.hdr()),
        retentionExpiriesSeen: j.retentionExpiriesSeen, retriedByClient: j.retriedByClient, cancelLatencyMs: encode(j.cancelLatencyMs.hdr()), cancelled: j.cancelled,
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
