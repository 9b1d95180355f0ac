/**
 * The workers of a pool, in the order they were added: a doubly linked list through the workers
 * themselves (`poolPrev`, `poolNext`, `poolSeq`), not a Set. A REQUEST_COUNT endpoint adds and
 * removes a worker per job, and a Set's hashing, deletion holes and rehashing were ~2 % of the
 * diurnal day (perf). Iteration keeps a Set's order and its behaviour when the worker being
 * visited is removed (`after`).
 */
import type { Worker } from './worker.js';

export class WorkerList {
  first: Worker | undefined = undefined;
  private last: Worker | undefined = undefined;
  size = 0;
  /** Adds so far: each add's number (`poolSeq`) is the worker's place in the order. */
  private adds = 0;

  add(w: Worker): void {
    w.poolSeq = this.adds++;
    w.poolPrev = this.last;
    w.poolNext = undefined;
    if (this.last) this.last.poolNext = w;
    else this.first = w;
    this.last = w;
    this.size++;
  }

  delete(w: Worker): void {
    if (w.poolSeq < 0) return;
    if (w.poolPrev) w.poolPrev.poolNext = w.poolNext;
    else this.first = w.poolNext;
    if (w.poolNext) w.poolNext.poolPrev = w.poolPrev;
    else this.last = w.poolPrev;
    w.poolPrev = w.poolNext = undefined;
    w.poolSeq = -1;
    this.size--;
  }

  /**
   * The worker to visit after `w`, which was added as number `seq`, as a Set's iterator goes on:
   * if `w` was removed (and maybe added again) meanwhile, the first worker added after `seq`.
   */
  after(w: Worker, seq: number): Worker | undefined {
    if (w.poolSeq === seq) return w.poolNext;
    let n = this.first;
    while (n && n.poolSeq <= seq) n = n.poolNext;
    return n;
  }

  *values(): IterableIterator<Worker> {
    for (let w = this.first; w; w = w.poolNext) yield w;
  }
}
