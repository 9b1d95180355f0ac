/**
 * Real clock: virtual time = wall time since start × `speed`. This is the one place in loadlab
 * that owns wall-clock timers: it runs the core up to "now" and sleeps until the next event
 * (`sched.peekMs()`), re-arming when a request schedules something earlier.
 */
import { performance } from 'node:perf_hooks';
import type { Simulator } from '../sim/simulator.js';
import { MAX_TIMER_MS, type Clock } from './clock.js';

export class RealClock implements Clock {
  readonly kind = 'real' as const;
  private readonly startWallMs = performance.now();
  private readonly startEpochMs = Date.now();
  private readonly baseMs: number;
  private timer: NodeJS.Timeout | undefined;
  /** Virtual time the armed timer wakes for, or undefined when none is armed. */
  private armedAtMs: number | undefined;
  private stopped = false;

  /** `speed`: virtual ms per wall ms (> 0). */
  constructor(
    private readonly sim: Simulator,
    private readonly speed: number,
  ) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
    this.baseMs = sim.nowMs;
    this.arm();
  }

  /** Current virtual time (integer ms, never behind the simulation). */
  virtualNow(): number {
    const v = this.baseMs + Math.floor((performance.now() - this.startWallMs) * this.speed);
    return v > this.sim.nowMs ? v : this.sim.nowMs;
  }

  sync(): void {
    if (this.stopped) return;
    const now = this.virtualNow();
    try {
      if (now > this.sim.nowMs || (this.sim.sched.peekMs() ?? Infinity) <= now) this.sim.runUntil(now);
    } catch (e) {
      // A core bug must not take the server down with every held request; report it and go on.
      process.stderr.write(`loadlab serve: error in a simulated event: ${(e as Error).stack ?? String(e)}\n`);
    }
  }

  poke(): void {
    if (this.stopped) return;
    const next = this.sim.sched.peekMs();
    if (next !== undefined && (this.armedAtMs === undefined || next < this.armedAtMs)) this.arm();
  }

  toEpochMs(virtualMs: number): number {
    return this.startEpochMs + virtualMs;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = this.armedAtMs = undefined;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = this.armedAtMs = undefined;
    const next = this.sim.sched.peekMs();
    if (next === undefined || this.stopped) return;
    const wallMs = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil((next - this.virtualNow()) / this.speed)));
    this.armedAtMs = next;
    this.timer = setTimeout(() => this.tick(), wallMs);
    this.timer.unref(); // the listening socket keeps the process alive, not the clock
  }

  private tick(): void {
    this.timer = this.armedAtMs = undefined;
    this.sync();
    this.arm();
  }
}
