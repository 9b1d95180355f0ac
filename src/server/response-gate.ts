/**
 * Bounds the bytes of serialised response bodies in flight server-wide (written but not yet
 * handed to the kernel, i.e. until node's response is closed). A large answer that finds the
 * bound reached waits, first come first served, and is serialised only when its turn comes, so
 * twenty reads of a 20 MB result hold a few copies at a time, not twenty. Small answers
 * (under `LARGE_ANSWER_BYTES`) never wait and are not counted: their total is bounded by the
 * connection count.
 */
import type { ServerResponse } from 'node:http';

/** Answers from this many bytes on go through the gate. */
export const LARGE_ANSWER_BYTES = 64 * 1024;

export class ResponseGate {
  private used = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly limitBytes: number) {}

  /** Whether a large answer may be written now; if not, `wait`. */
  open(): boolean {
    return this.queue.length === 0 && this.used < this.limitBytes;
  }

  /** Counts `bytes` against the bound until `res` is done (finished or its client gone). */
  hold(res: ServerResponse, bytes: number): void {
    this.used += bytes;
    res.once('close', () => {
      this.used -= bytes;
      this.drain();
    });
  }

  /** Runs `write` (which must `hold`) once earlier answers have drained; dropped if the client has gone. */
  wait(res: ServerResponse, write: () => void): void {
    this.queue.push(() => {
      if (!res.destroyed && !res.writableEnded) write();
    });
  }

  private drain(): void {
    while (this.used < this.limitBytes && this.queue.length > 0) this.queue.shift()!();
  }
}
