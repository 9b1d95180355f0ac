/**
 * Typed domain events. The core publishes them; telemetry, reports and tests subscribe. The core
 * knows nothing of prom-client or OTel. Every event carries its virtual time `atMs`.
 */
import type { JobKind, JobStatus } from './job.js';
import type { WorkerState } from './worker.js';

export type LimitCause = 'rate' | 'concurrency' | 'queue';

export type SimEvent =
  | { type: 'job.accepted'; atMs: number; endpointId: string; jobId: string; kind: JobKind; lowPriority: boolean }
  | { type: 'job.started'; atMs: number; endpointId: string; jobId: string; workerId: string; delayTimeMs: number }
  | { type: 'job.progressed'; atMs: number; endpointId: string; jobId: string; chunk: number }
  | {
      type: 'job.finished';
      atMs: number;
      endpointId: string;
      jobId: string;
      status: JobStatus;
      delayTimeMs: number | undefined;
      executionTimeMs: number | undefined;
    }
  | { type: 'job.requeued'; atMs: number; endpointId: string; jobId: string; reason: 'crash' | 'retry' }
  | { type: 'job.expired'; atMs: number; endpointId: string; jobId: string; reason: 'retention' | 'ttl'; status: JobStatus }
  | { type: 'job.purged'; atMs: number; endpointId: string; jobId: string }
  | { type: 'request.limited'; atMs: number; endpointId: string; operation: string; cause: LimitCause }
  | {
      type: 'webhook.attempt';
      atMs: number;
      endpointId: string;
      jobId: string;
      attempt: number;
      /** delivered: got a 200; failed: will retry; gave-up: the last attempt failed. */
      outcome: 'delivered' | 'failed' | 'gave-up';
      httpStatus?: number;
      error?: string;
    }
  | { type: 'worker.state'; atMs: number; endpointId: string; workerId: string; from: WorkerState | 'none'; to: WorkerState | 'stopped' };

export type SimEventListener = (e: SimEvent) => void;

/** A synchronous fan-out. `active` lets hot paths skip building events nobody listens to. */
export class EventBus {
  private listeners: SimEventListener[] = [];
  active = false;

  on(l: SimEventListener): () => void {
    this.listeners.push(l);
    this.active = true;
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
      this.active = this.listeners.length > 0;
    };
  }

  emit(e: SimEvent): void {
    for (const l of this.listeners) l(e);
  }
}
