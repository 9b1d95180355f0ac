/**
 * The endpoint's queue: FIFO within a priority; normal jobs before lowPriority jobs
 * (lowPriority jobs run only when no normal job waits). Intrusive doubly linked lists give O(1)
 * push, pop and removal (cancel, purge, ttl) without allocating nodes.
 */
import { isLowPriority, type Job } from './job.js';

class JobList {
  head: Job | undefined;
  tail: Job | undefined;
  length = 0;

  pushBack(j: Job): void {
    j.prev = this.tail;
    j.next = undefined;
    if (this.tail) this.tail.next = j;
    else this.head = j;
    this.tail = j;
    this.length++;
  }

  pushFront(j: Job): void {
    j.next = this.head;
    j.prev = undefined;
    if (this.head) this.head.prev = j;
    else this.tail = j;
    this.head = j;
    this.length++;
  }

  remove(j: Job): void {
    if (j.prev) j.prev.next = j.next;
    else this.head = j.next;
    if (j.next) j.next.prev = j.prev;
    else this.tail = j.prev;
    j.prev = j.next = undefined;
    this.length--;
  }
}

export class JobQueue {
  private readonly normal = new JobList();
  private readonly low = new JobList();

  get length(): number {
    return this.normal.length + this.low.length;
  }

  get normalLength(): number {
    return this.normal.length;
  }

  /** Oldest normal job (the one the QUEUE_DELAY scaler looks at). */
  get oldestNormal(): Job | undefined {
    return this.normal.head;
  }

  /** Appends; `front` puts it first in its priority (a crashed job keeps its turn). */
  push(j: Job, front = false): void {
    const list = isLowPriority(j) ? this.low : this.normal;
    if (front) list.pushFront(j);
    else list.pushBack(j);
  }

  /** The next job to run, or undefined. */
  shift(): Job | undefined {
    const j = this.normal.head ?? this.low.head;
    if (j) this.remove(j);
    return j;
  }

  remove(j: Job): void {
    const list = isLowPriority(j) ? this.low : this.normal;
    // Queued: linked (prev) or at the head; unlinking resets both links.
    if (j.prev === undefined && list.head !== j) return;
    list.remove(j);
  }

  /** Queued jobs in run order. */
  *[Symbol.iterator](): IterableIterator<Job> {
    for (let j = this.normal.head; j; j = j.next) yield j;
    for (let j = this.low.head; j; j = j.next) yield j;
  }
}
