/**
 * Is the target reachable at all? A run whose every answer so far is 401, 403, 404 or a
 * transport error (no HTTP answer: refused, reset, DNS) is aimed at the wrong key, endpoint id
 * or URL: after the first `UNREACHABLE_AFTER` such answers the guard trips and the run stops
 * (no new arrivals), so a CI job never hammers a real deployment with requests it refuses.
 * Any other answer — 2xx, 429, 5xx, … — proves the target reachable and the guard goes quiet.
 * A client timeout proves nothing either way (a held runsync may outlive its client timeout on a
 * reachable endpoint) and is not counted.
 */
import type { Unreachable } from '../../report/run-result.js';

/** Unreachable-looking answers (with no other answer before them) that stop a run. */
export const UNREACHABLE_AFTER = 20;

/** Statuses that say "not this key / not this endpoint" rather than "here, but busy or broken". */
const REFUSED = new Set([401, 403, 404]);

/** Does `status` say "not this key / not this endpoint"? */
export const isRefusal = (status: number): boolean => REFUSED.has(status);

export class Reachability {
  /** An answer other than 401/403/404/transport error came: the guard stays quiet from now on. */
  reachable = false;
  /** Unreachable-looking answers seen (only while not yet reachable). */
  answers = 0;
  private readonly byStatus = new Map<number, number>();
  private firstError: string | undefined = undefined;
  /** Called once, when the guard trips (the run loop ends the drive). */
  onTrip: (() => void) | undefined = undefined;

  constructor(private readonly limit = UNREACHABLE_AFTER) {}

  get tripped(): boolean {
    return !this.reachable && this.answers >= this.limit;
  }

  /** One answer (`status` 0: none); `error`: the transport error, `timedOut`: a client timeout. */
  see(status: number, error?: string, timedOut?: boolean): void {
    if (this.reachable || this.tripped) return;
    if (status === 0 && (timedOut || error === undefined)) return;
    if (status !== 0 && !REFUSED.has(status)) {
      this.reachable = true;
      return;
    }
    if (status === 0) this.firstError ??= error;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (++this.answers === this.limit) this.onTrip?.();
  }

  /** What the run saw, when nothing showed the target reachable (undefined otherwise or with no answer). */
  result(): Unreachable | undefined {
    if (this.reachable || this.answers === 0) return undefined;
    // The most frequent kind names the cause; ties go to the first seen.
    let status = 0;
    let most = -1;
    for (const [s, n] of this.byStatus) if (n > most) [status, most] = [s, n];
    return { status, answers: this.answers, stoppedEarly: this.tripped, ...(status === 0 && this.firstError ? { error: this.firstError } : {}) };
  }
}
