/**
 * The live jobs of an endpoint, by id. Ids carry a sequence number (ids.ts), so the table is an
 * array indexed by sequence, trimmed at the front as the oldest jobs expire — retention expires
 * jobs roughly in submission order, so the array stays about as long as the retained set.
 * Reads look like a Map's (`get`, `has`, `size`, `values`).
 */
import type { JobIds } from './ids.js';
import type { Job } from './job.js';

export class JobTable {
  private slots: (Job | undefined)[] = [];
  /** Sequence number of `slots[0]`. */
  private base = 0;
  private head = 0;
  private count = 0;

  constructor(private readonly ids: JobIds) {}

  get size(): number {
    return this.count;
  }

  get(id: string): Job | undefined {
    const i = this.ids.seqOf(id) - this.base;
    if (i < this.head || i >= this.slots.length) return undefined;
    const j = this.slots[i];
    return j !== undefined && this.idOf(j) === id ? j : undefined;
  }

  /** The job's id, built on first use and then kept on the job (see Job.id). */
  idOf(j: Job): string {
    return j.id !== '' ? j.id : (j.id = this.ids.format(j.seq, j.kind === 'runsync'));
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The sequence number of an id (see ids.ts). */
  seqOf(id: string): number {
    return this.ids.seqOf(id);
  }

  add(j: Job): void {
    const i = j.seq - this.base;
    if (i < this.head) throw new Error(`job ${this.idOf(j)} is older than the table`);
    while (this.slots.length < i) this.slots.push(undefined);
    this.slots[i] = j;
    this.count++;
  }

  delete(j: Job): void {
    const i = j.seq - this.base;
    if (this.slots[i] !== j) return;
    this.slots[i] = undefined;
    this.count--;
    while (this.head < this.slots.length && this.slots[this.head] === undefined) this.head++;
    if (this.head > 4096 && this.head * 2 > this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.base += this.head;
      this.head = 0;
    }
  }

  /** Live jobs, oldest submission first (ids built). */
  *values(): IterableIterator<Job> {
    for (const j of this.raw()) {
      this.idOf(j);
      yield j;
    }
  }

  /** Live jobs, oldest submission first, ids not built (internal sweeps). */
  *raw(): IterableIterator<Job> {
    for (let i = this.head; i < this.slots.length; i++) {
      const j = this.slots[i];
      if (j !== undefined) yield j;
    }
  }

  /** Live jobs, newest submission first. */
  *newestFirst(): IterableIterator<Job> {
    for (let i = this.slots.length - 1; i >= this.head; i--) {
      const j = this.slots[i];
      if (j !== undefined) {
        this.idOf(j);
        yield j;
      }
    }
  }
}
