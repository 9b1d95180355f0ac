/**
 * One operation's sends and requests in flight: sends per histogram window (RunResult
 * `windows.requests`), the level in flight now, its peak over the run, and its maximum in each
 * window (`windows.inFlightMax`). A window's maximum is the level it started with or the level
 * right after a send in it, so every window is exact, also one no request was sent in (a long
 * /runsync held across it). Hot path: one division, one compare.
 */
import { WindowIndex } from './window-index.js';

export class InFlightWindows {
  level = 0;
  peak = 0;
  /** Maximum per window; grown to the newest window an event fell in. */
  private readonly max: number[] = [];
  /** Sends per window (of the send); as long as `max` or shorter. */
  readonly sent: number[] = [];

  private readonly index: WindowIndex;

  constructor(windowMs: number) {
    this.index = new WindowIndex(windowMs);
  }

  /** A request sent at `atMs`. */
  up(atMs: number): void {
    const i = this.reach(atMs);
    const sent = this.sent;
    while (sent.length <= i) sent.push(0);
    sent[i]!++;
    const l = ++this.level;
    if (l > this.peak) this.peak = l;
    if (l > this.max[i]!) this.max[i] = l;
  }

  /** A request answered at `atMs`. */
  down(atMs: number): void {
    this.reach(atMs);
    this.level--;
  }

  /** The window of `atMs`; windows not reached before start at the level held since the last event. */
  private reach(atMs: number): number {
    const i = this.index.of(atMs);
    const a = this.max;
    while (a.length <= i) a.push(this.level);
    return i;
  }

  /** Windows 0 to `n - 1`: later ones start at the level now; anything past the last counts in it. */
  result(n: number): number[] {
    const a = this.max;
    const out = a.slice(0, n);
    while (out.length < n) out.push(this.level);
    for (let i = n; i < a.length; i++) if (a[i]! > out[n - 1]!) out[n - 1] = a[i]!;
    return out;
  }
}
