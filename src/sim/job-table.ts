/**
 * The retained jobs of an endpoint, by sequence number (ids carry it: ids.ts). A job is a `Job`
 * object while it can still change; once it has ended plainly (completed or cancelled, no webhook,
 * policy or stream state, retention decided by an expiry lane) the endpoint `compact`s it: its
 * result moves into typed-array columns and the object becomes garbage while still young. A day
 * of traffic retains millions of results for 30 min; as columns they cost ~45 B each and nothing
 * for the garbage collector to trace (as objects: ~220 B each, copied and marked).
 *
 * `get` hands out the object, or for a compacted job a snapshot rebuilt from the columns (a
 * fresh object that is not stored). Readers cannot tell the difference. A mutator must call `own`
 * first, which stores the snapshot as the job's object again: `get` returns a `ReadonlyJob`, so
 * the compiler rejects a change (or a call that may change it) that skips `own`.
 *
 * Slots are indexed by `seq - base`; the front is trimmed as the oldest jobs expire (retention
 * expires jobs roughly in submission order, so the span stays about as long as the retained set).
 */
import type { JobIds } from './ids.js';
import { GONE, snapshotJob, type Job, type ReadonlyJob } from './job.js';
import type { JobKind, JobStatus } from '../contract/sim-events.js';
import { StatusBody } from './job-body.js';
import { workerId, workerIdPrefix } from './worker.js';
import { setOutput } from './workload.js';
import { InternalError } from '../contract/loadlab-error.js';

const EMPTY = 0;
const OBJECT = 1;
/** A compacted slot's state: FIRST_COMPACT + status index × 3 + kind index. */
const FIRST_COMPACT = 2;
const COMPACT_STATUSES: readonly JobStatus[] = ['COMPLETED', 'CANCELLED'];
const KINDS: readonly JobKind[] = ['run', 'runsync', 'openai'];
/** Column value of a time the job never had (never started). */
const NONE = -1;
/** Slots of the ring of recently compacted jobs' ids (a power of two). */
const RECENT = 4096;

export class JobTable {
  private state = new Uint8Array(1024);
  /** The `Job` (OBJECT) or, compacted, its output (undefined when cancelled). */
  private refs: unknown[] = [];
  /**
   * The number of the worker of its last run (compacted; 0: none). Not the worker, nor its id
   * string: a REQUEST_COUNT endpoint starts and stops a worker per job, and 30 min of stopped
   * workers, or of their id strings, would stay alive and be copied by the garbage collector.
   */
  private workerNs = new Float64Array(1024);
  private delay = new Int32Array(1024);
  private exec = new Int32Array(1024);
  private expires = new Float64Array(1024);
  /** Sequence number of slot 0. */
  private base = 0;
  /** First slot in use, and one past the last. */
  private head = 0;
  private end = 0;
  private count = 0;

  /**
   * The ids of the last RECENT jobs compacted, by `seq % RECENT` (`recentSeq` says whose): a
   * client's poll that reads the result soon after the job ended is matched by comparing
   * strings (the same string object, mostly) instead of checking the id digit by digit. Older
   * results keep no id (30 min of id strings would be copied by the garbage collector).
   */
  private readonly recentIds: string[] = new Array<string>(RECENT).fill('');
  private readonly recentSeq = new Float64Array(RECENT).fill(-1);

  /** Worker ids of compacted jobs are `{prefix}{n}` (worker.ts). */
  private readonly workerPrefix: string;

  constructor(
    private readonly ids: JobIds,
    endpointId: string,
    /** The virtual clock: a compacted result whose expiry has come is hidden until its lane removes it. */
    private readonly clock: { readonly nowMs: number },
    /** A compacted job became an object again (`own`). */
    private readonly onOwned: (j: Job) => void,
  ) {
    this.workerPrefix = workerIdPrefix(endpointId);
  }

  /** Slots in use, lapsed compacted results not yet removed included (`Endpoint.retainedCount`). */
  get size(): number {
    return this.count;
  }

  /** The job with this id (an object, or a snapshot of a compacted one), or undefined. */
  get(id: string): ReadonlyJob | undefined {
    const i = this.find(id);
    if (i < 0) return undefined;
    const s = this.state[i]!;
    const j = (s === OBJECT ? this.refs[i] : this.snapshot(i, s)) as Job;
    // The job keeps the caller's string (answers name it): no second build for the body.
    if (j.id === '') j.id = id;
    return j;
  }

  /**
   * The status body of the compacted job with this id, read straight from the columns (what
   * `statusBody` gives for its snapshot, without building the snapshot: a poll that finds its job
   * ended is the last request of most jobs). Undefined when `id` names no compacted result: a
   * job object, or nothing (`get` then decides). `brief`: without `workerId` and `output`.
   */
  compactedStatus(id: string, brief = false): StatusBody | undefined {
    const i = this.find(id);
    const s = i < 0 ? EMPTY : this.state[i]!;
    if (s < FIRST_COMPACT) return undefined;
    const completed = s - FIRST_COMPACT < KINDS.length;
    const b = new StatusBody(id, completed ? 'COMPLETED' : 'CANCELLED');
    const delay = this.delay[i]!;
    if (delay !== NONE) b.delayTime = delay;
    const exec = this.exec[i]!;
    if (exec !== NONE) b.executionTime = exec;
    if (brief) return b;
    const n = this.workerNs[i]!;
    if (n > 0) b.workerId = workerId(this.workerPrefix, n);
    if (completed) setOutput(b, this.refs[i]);
    return b;
  }

  /** The slot of the live job with this id (the id checked against its sequence number), or -1. */
  private find(id: string): number {
    const seq = this.ids.seqOf(id);
    const i = seq - this.base;
    if (seq < 0 || i < this.head || i >= this.end) return -1;
    const s = this.state[i]!;
    if (s === EMPTY) return -1;
    let kind: JobKind;
    if (s === OBJECT) {
      const j = this.refs[i] as Job;
      if (j.id !== '') return j.id === id ? i : -1;
      kind = j.kind;
    } else {
      if (this.lapsed(i)) return -1;
      kind = KINDS[(s - FIRST_COMPACT) % KINDS.length]!;
    }
    const r = seq & (RECENT - 1);
    if (this.recentSeq[r] === seq) return this.recentIds[r] === id ? i : -1;
    return this.ids.matches(id, seq, kind === 'runsync') ? i : -1;
  }

  /** The job's id, built on first use and then kept on the job (see Job.id). */
  idOf(j: ReadonlyJob): string {
    // Filling in the id is not a change a reader could see (Job.id): allowed on a snapshot.
    return j.id !== '' ? j.id : ((j as Job).id = this.ids.format(j.seq, j.kind === 'runsync'));
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The sequence number of an id (see ids.ts). */
  seqOf(id: string): number {
    return this.ids.seqOf(id);
  }

  /** First sequence number not in the table yet (every later job is newer). */
  get endSeq(): number {
    return this.base + this.end;
  }

  add(j: Job): void {
    const i = j.seq - this.base;
    if (i < this.head) throw new InternalError(`job ${this.idOf(j)} is older than the table`);
    if (i >= this.state.length) this.grow(i + 1);
    // Dense arrays (a gap: another endpoint's sequence numbers): a sparse one turns into a dictionary.
    while (this.refs.length < i) this.refs.push(undefined);
    this.state[i] = OBJECT;
    this.refs[i] = j;
    this.workerNs[i] = 0;
    if (i >= this.end) this.end = i + 1;
    this.count++;
  }

  /** The stored object of job `seq` (not a snapshot), or undefined. */
  objectAt(seq: number): Job | undefined {
    const i = seq - this.base;
    return i >= this.head && i < this.end && this.state[i] === OBJECT ? (this.refs[i] as Job) : undefined;
  }

  /** A snapshot of job `seq` if it is compacted, else undefined. */
  compactedAt(seq: number): ReadonlyJob | undefined {
    const i = seq - this.base;
    const s = i >= this.head && i < this.end ? this.state[i]! : EMPTY;
    return s >= FIRST_COMPACT ? this.snapshot(i, s) : undefined;
  }

  /** When job `seq` is removed, or GONE if it is not in the table. */
  expiresAt(seq: number): number {
    const i = seq - this.base;
    if (i < this.head || i >= this.end) return GONE;
    const s = this.state[i]!;
    return s === EMPTY ? GONE : s === OBJECT ? (this.refs[i] as Job).expiresAtMs : this.expires[i]!;
  }

  /**
   * Moves an ended job's result into the columns; its object is dropped. Only a COMPLETED or
   * CANCELLED job whose extras (if any) no longer show in any answer (the endpoint decides).
   */
  compact(j: Job): void {
    const i = j.seq - this.base;
    if (this.state[i] !== OBJECT || this.refs[i] !== j) return;
    const status = j.status === 'COMPLETED' ? 0 : 1;
    const kind = j.kind === 'run' ? 0 : j.kind === 'runsync' ? 1 : 2;
    this.state[i] = FIRST_COMPACT + status * KINDS.length + kind;
    this.refs[i] = j.output;
    const w = j.worker;
    this.workerNs[i] = typeof w === 'number' ? w : w === undefined ? 0 : w.n;
    this.delay[i] = j.startedAtMs === undefined ? NONE : j.startedAtMs - j.enqueuedAtMs;
    this.exec[i] = j.executionTimeMs ?? NONE;
    this.expires[i] = j.expiresAtMs;
    if (j.id !== '') {
      const r = j.seq & (RECENT - 1);
      this.recentIds[r] = j.id;
      this.recentSeq[r] = j.seq;
    }
  }

  /** The id of the worker of `j`'s last run (a compacted job has its id in the columns), or undefined. */
  workerIdOf(j: ReadonlyJob): string | undefined {
    const w = j.worker;
    if (typeof w === 'object') return w.id;
    if (typeof w === 'number') return workerId(this.workerPrefix, w);
    const i = j.seq - this.base;
    const n = i >= this.head && i < this.end ? this.workerNs[i]! : 0;
    return n > 0 ? workerId(this.workerPrefix, n) : undefined;
  }

  /** The stored object for `j`: a snapshot becomes the job's object again (before changing it). */
  own(snapshot: ReadonlyJob): Job {
    const j = snapshot as Job;
    const i = j.seq - this.base;
    const s = this.state[i];
    if (s === OBJECT) return this.refs[i] as Job;
    if (s !== EMPTY && i >= this.head && i < this.end) {
      this.state[i] = OBJECT;
      this.refs[i] = j;
      // Its worker's number goes with it: the body still names the worker once the slot is cleared.
      const n = this.workerNs[i]!;
      if (n > 0) j.worker = n;
      this.onOwned(j);
    }
    return j;
  }

  delete(j: Job): void {
    this.clear(j.seq);
  }

  /** Removes job `seq` (object or compacted). */
  clear(seq: number): void {
    const i = seq - this.base;
    if (i < this.head || i >= this.end || this.state[i] === EMPTY) return;
    this.state[i] = EMPTY;
    this.refs[i] = undefined;
    this.count--;
    while (this.head < this.end && this.state[this.head] === EMPTY) this.head++;
    if (this.head === this.end) {
      // Empty: start over at the next sequence number (every slot is EMPTY already).
      this.base += this.end;
      this.head = this.end = 0;
      this.refs.length = 0;
    } else if (this.head > 4096 && this.head * 2 > this.end) this.rebase();
  }

  /** Live jobs (objects or snapshots), oldest submission first, ids built. */
  *values(): IterableIterator<ReadonlyJob> {
    for (let i = this.head; i < this.end; i++) {
      const j = this.at(i);
      if (j) yield j;
    }
  }

  /** Live jobs, newest submission first, ids built. */
  *newestFirst(): IterableIterator<ReadonlyJob> {
    for (let i = this.end - 1; i >= this.head; i--) {
      const j = this.at(i);
      if (j) yield j;
    }
  }

  private at(i: number): ReadonlyJob | undefined {
    const s = this.state[i]!;
    if (s === EMPTY || (s >= FIRST_COMPACT && this.lapsed(i))) return undefined;
    const j = s === OBJECT ? (this.refs[i] as Job) : this.snapshot(i, s);
    this.idOf(j);
    return j;
  }

  /**
   * Has the compacted result in slot `i` reached its expiry? It is then gone for every reader,
   * though its expiry lane may remove it a little later (retention.ts `unseen`).
   */
  private lapsed(i: number): boolean {
    return this.expires[i]! <= this.clock.nowMs;
  }

  private snapshot(i: number, s: number): ReadonlyJob {
    const c = s - FIRST_COMPACT;
    const status = COMPACT_STATUSES[Math.floor(c / KINDS.length)]!;
    const kind = KINDS[c % KINDS.length]!;
    const delay = this.delay[i]!;
    const exec = this.exec[i]!;
    return snapshotJob(this.base + i, kind, status, delay === NONE ? undefined : delay, exec === NONE ? undefined : exec, this.refs[i], this.expires[i]!);
  }

  private grow(min: number): void {
    let cap = this.state.length;
    while (cap < min) cap *= 2;
    this.state = copyInto(new Uint8Array(cap), this.state);
    this.delay = copyInto(new Int32Array(cap), this.delay);
    this.exec = copyInto(new Int32Array(cap), this.exec);
    this.expires = copyInto(new Float64Array(cap), this.expires);
    this.workerNs = copyInto(new Float64Array(cap), this.workerNs);
  }

  /** Moves the slots in use to the front (amortised: only once half the span is free). */
  private rebase(): void {
    const h = this.head;
    if (h === 0) return;
    this.state.copyWithin(0, h, this.end);
    this.state.fill(EMPTY, this.end - h, this.end);
    this.delay.copyWithin(0, h, this.end);
    this.exec.copyWithin(0, h, this.end);
    this.expires.copyWithin(0, h, this.end);
    this.workerNs.copyWithin(0, h, this.end);
    this.refs.splice(0, h);
    this.base += h;
    this.end -= h;
    this.head = 0;
  }
}

function copyInto<T extends Uint8Array | Int32Array | Float64Array>(to: T, from: T): T {
  to.set(from as never);
  return to;
}
