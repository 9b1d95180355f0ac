/**
 * When the HTTP target's loop sleeps and when it spins before its next event (all times ms on
 * the target clock). The alarm thread (alarm.ts) wakes the loop `alarmLead` before the event; the
 * loop spins from there (spinning costs a core while it lasts). The lead is at most SPIN_MS and at
 * most SPIN_SHARE of the wait, so the spin costs at most SPIN_SHARE of one core at any rate, while
 * sleeping alone would leave each send to the alarm's wake-up (late by ~0.1-0.3 ms at the median
 * and by ms at p99 on a busy VM). An event nearer than MIN_ALARM_MS is spun for at once: an alarm
 * round trip (two threads woken) takes about that long. At 1 000 arrivals/s a share of 0.1 cost
 * 40-120 µs of CPU per request more than 0.02 in alternating runs, for a p99 lateness at the
 * server under 2 ms either way (docs/performance.md, "generator-vs-peers").
 */
export const SPIN_MS = 1;
export const SPIN_SHARE = 0.02;
export const MIN_ALARM_MS = 0.05;

/** How long (ms) before an event at `atMs` the alarm wakes the loop, set at `nowMs`. */
export function alarmLead(atMs: number, nowMs: number): number {
  return Math.min(SPIN_MS, SPIN_SHARE * Math.max(0, atMs - nowMs));
}

/**
 * Whether the loop spins for an event at `atMs` now rather than sleep: it is the event the alarm
 * last rang for (`spinForMs`, or an earlier one), or too near for an alarm.
 */
export function spinsNow(atMs: number, nowMs: number, spinForMs: number): boolean {
  return atMs <= spinForMs || atMs - nowMs < MIN_ALARM_MS;
}
