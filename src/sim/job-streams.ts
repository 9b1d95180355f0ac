/**
 * Streaming output (`/stream`): a job of n > 1 chunks produces chunk i at start + duration × i / n
 * (the last one with completion); `/stream` drains what is new since the last call. A single-chunk
 * job streams its output once, when it completed. While running, the latest chunk is the status
 * body's progress output. On an `llm:` endpoint each token is an item (its text, token-text.ts),
 * produced at its instant of the token model (token-model.ts); a run that will fail produces none.
 */
import type { EndpointConfig } from '../contract/endpoint-config.js';
import type { EventBus } from './event-bus.js';
import { chunksOf, extras, isTerminal, type Job, type ReadonlyJob } from './job.js';
import type { JobTable } from './job-table.js';
import type { Scheduler } from '../lib/scheduler.js';
import type { TokenRun } from './token-model.js';
import { tokenPieces } from './token-text.js';
import { outputValue, type Workload } from './workload.js';

export class JobStreams {
  constructor(
    private readonly cfg: EndpointConfig,
    private readonly sched: Scheduler,
    private readonly workload: Workload,
    private readonly jobs: JobTable,
    private readonly bus: EventBus,
    /** Tells the job's held requests that a chunk landed. */
    private readonly chunkLanded: (j: Job) => void,
    /** Tokens produced so far on an `llm:` endpoint (an engine counts them as asked: Endpoint.tokensDone). */
    private readonly tokensDone: (j: ReadonlyJob) => number,
  ) {}

  /** Chunks of the current run: on an `llm:` endpoint, its tokens (0 before it started or when it will fail). */
  chunkCount(j: ReadonlyJob): number {
    if (this.cfg.llm) return j.x?.tokens?.count ?? 0;
    return j.x?.directives?.chunks ?? this.cfg.workload.chunks;
  }

  /** The latest chunk of a running job (its progress output; set it with `setOutput`), or undefined (always on an `llm:` endpoint). */
  progress(j: ReadonlyJob): unknown {
    if (this.cfg.llm) return undefined;
    return j.status === 'IN_PROGRESS' && chunksOf(j) > 0 ? this.workload.chunk(chunksOf(j), this.chunkCount(j), j.x?.directives) : undefined;
  }

  /** Partial outputs produced since the last call, oldest first. */
  drain(job: ReadonlyJob): unknown[] {
    const j = this.jobs.own(job);
    if (this.cfg.llm) {
      const from = j.x?.streamBuffer?.length ?? 0;
      const done = this.tokensDone(j);
      if (done <= from) return [];
      extras(j).streamBuffer = new Array(done);
      return tokenPieces(this.jobs.idOf(j), from, done);
    }
    const items: unknown[] = [];
    const n = this.chunkCount(j);
    if (n > 1) {
      const done = chunksOf(j);
      for (let i = (j.x?.streamBuffer?.length ?? 0) + 1; i <= done; i++) items.push(outputValue(this.workload.chunk(i, n, j.x?.directives)));
      extras(j).streamBuffer = new Array(done);
    } else if (j.status === 'COMPLETED' && !j.x?.streamBuffer) {
      items.push(outputValue(j.output));
      extras(j).streamBuffer = [];
    }
    return items;
  }

  /** True when `/stream` has nothing new and the job can still produce something. */
  idle(j: ReadonlyJob): boolean {
    if (isTerminal(j.status)) return false;
    if (this.cfg.llm) return this.tokensDone(j) <= (j.x?.streamBuffer?.length ?? 0);
    return this.chunkCount(j) <= 1 || chunksOf(j) <= (j.x?.streamBuffer?.length ?? 0);
  }

  /** Schedules the chunks of a run that has just started. */
  started(j: Job, durationMs: number, chunks: number): void {
    if (chunks > 1) this.schedule(j, durationMs, chunks, 1);
  }

  /** Schedules the tokens of an `llm:` run that has just started (the last one lands with completion). */
  startedTokens(j: Job, run: TokenRun): void {
    if (run.count > 1) this.scheduleToken(j, run, 1);
  }

  private scheduleToken(j: Job, run: TokenRun, k: number): void {
    const startedAt = j.startedAtMs!;
    this.sched.at(startedAt + run.atMs[k - 1]!, () => {
      if (j.status !== 'IN_PROGRESS' || j.startedAtMs !== startedAt || j.x?.tokens !== run) return;
      extras(j).chunksDone = k;
      if (this.bus.active) this.bus.emit({ type: 'job.progressed', atMs: this.sched.nowMs, endpointId: this.cfg.id, jobId: this.jobs.idOf(j), chunk: k });
      this.chunkLanded(j);
      if (k + 1 < run.count) this.scheduleToken(j, run, k + 1);
    });
  }

  private schedule(j: Job, durationMs: number, chunks: number, i: number): void {
    if (i >= chunks) return; // the last chunk lands with completion
    const startedAt = j.startedAtMs!;
    this.sched.at(startedAt + Math.floor((durationMs * i) / chunks), () => {
      if (j.status !== 'IN_PROGRESS' || j.startedAtMs !== startedAt) return;
      extras(j).chunksDone = i;
      if (this.bus.active) this.bus.emit({ type: 'job.progressed', atMs: this.sched.nowMs, endpointId: this.cfg.id, jobId: this.jobs.idOf(j), chunk: i });
      this.chunkLanded(j);
      this.schedule(j, durationMs, chunks, i + 1);
    });
  }
}
