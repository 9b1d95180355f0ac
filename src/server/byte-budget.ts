/**
 * A server-wide count of bytes held for requests in flight (request bodies being read, response
 * bodies being written), against a limit. One holder alone may exceed the limit: a single
 * request always proceeds, whatever the bound.
 */
export class ByteBudget {
  private usedBytes = 0;

  constructor(readonly limitBytes: number) {}

  get used(): number {
    return this.usedBytes;
  }

  /** Takes `n` bytes if they fit (or nothing is held); false, and nothing taken, otherwise. */
  take(n: number): boolean {
    if (this.usedBytes > 0 && this.usedBytes + n > this.limitBytes) return false;
    this.usedBytes += n;
    return true;
  }

  give(n: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - n);
  }
}
