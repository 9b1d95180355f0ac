/**
 * The clocks that drive the core in `serve`. The core never knows which one runs it.
 * - real: virtual ms = wall ms × speed since start (real-clock.ts, the only owner of wall timers);
 * - manual: time moves only through `advance` (the admin API).
 */
export type ClockKind = 'real' | 'manual';

export interface Clock {
  readonly kind: ClockKind;
  /** Brings the simulation up to the present before a request is handled (real clock). */
  sync(): void;
  /** Something may now be scheduled earlier than the next wake-up: re-arm (real clock). */
  poke(): void;
  /** Virtual ms → epoch ms, for traces: virtual 0 is the instant the clock started. */
  toEpochMs(virtualMs: number): number;
  /** Stops every timer; the simulation stays where it is. */
  stop(): void;
}

/** Largest delay `setTimeout` honours (ms); longer waits are re-armed on wake-up. */
export const MAX_TIMER_MS = 2_147_483_647;
