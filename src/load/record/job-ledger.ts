/**
 * Every job the API accepted, counted once, in the one category its session ended in: the final
 * status read (COMPLETED, FAILED, CANCELLED, TIMED_OUT), `purged`, `expired`, `gave-up`,
 * `webhook-lost`, or `unfinished` (still followed when the run ended). The categories sum to
 * `accepted`.
 *
 * A 404 for a job says only that it is gone. It counts as purged when the job was last known
 * queued before a /purge-queue that removed jobs was answered, or while one was still on its way
 * (a purge answers held requests of the jobs it removes before its own answer arrives); else as
 * expired (retention or ttl). Order is the order the client saw things in (`mark`), not time, so
 * equal timestamps cannot blur it.
 */
import { Tally } from './tally.js';

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

export class JobLedger {
  accepted = 0;
  /** Jobs by the outcome of their session (ended sessions only; `unfinished` is the rest). */
  readonly outcomes = new Tally();
  private order = 0;
  /** Mark of the latest /purge-queue answered with `removed` > 0 (-1: none). */
  private lastPurge = -1;
  /** Marks of /purge-queue requests sent and not answered yet. */
  private readonly purgesOut: number[] = [];

  /** A new order mark: later calls get larger ones. */
  mark(): number {
    return ++this.order;
  }

  purgeSent(): void {
    this.purgesOut.push(this.mark());
  }

  /** A /purge-queue answer: `removed` jobs left the queue (0 for an error answer). */
  purgeAnswered(removed: number): void {
    this.purgesOut.shift();
    if (removed > 0) this.lastPurge = this.mark();
  }

  /** What a 404 for a job last known queued at `queuedMark` (Infinity: seen running since) means. */
  gone(queuedMark: number): 'purged' | 'expired' {
    if (this.lastPurge > queuedMark) return 'purged';
    for (const m of this.purgesOut) if (m > queuedMark) return 'purged';
    return 'expired';
  }

  /** The session holding an accepted job ended with `outcome`. */
  ended(outcome: string): void {
    this.outcomes.add(outcome);
  }

  /** Jobs by category, `unfinished` included; sorted by name. */
  categories(): Record<string, number> {
    const m = this.outcomes.toMap();
    let ended = 0;
    for (const v of m.values()) ended += v;
    if (this.accepted > ended) m.set('unfinished', (m.get('unfinished') ?? 0) + this.accepted - ended);
    return Object.fromEntries([...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  }

  /** The final status of each job whose session ended on one. */
  finalStatus(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.categories()).filter(([k]) => TERMINAL.has(k)));
  }
}
