/**
 * Manual clock: virtual time moves only through `advance(ms)` (POST /_sim/advance). It runs every
 * event up to now + ms in order; whenever a webhook attempt is out, it waits for its outcome
 * before the next event (a failed attempt schedules the retry that may fall inside the span).
 * When the promise resolves, every effect of the span is observable through the API.
 */
import type { Simulator } from '../sim/simulator.js';
import type { Clock } from './clock.js';
import { Occupancy } from '../sim/occupancy.js';

/** Window of the occupancy a manual clock keeps (`POST /_sim/occupancy`): every run window is a multiple of it. */
export const OCCUPANCY_WINDOW_MS = 10_000;

/** API requests seen, for a client that steps the clock (lockstep): it advances only when each one it sent was handled. */
export interface RequestCounts {
  /** Requests handed to the API. */
  received: number;
  /** Of those, answered (at once or when released) or abandoned by their client. */
  ended: number;
  /** Client markers (`POST /_sim/mark`) that have fired. */
  markers: number;
}

export class ManualClock implements Clock {
  readonly kind = 'manual' as const;
  readonly requests: RequestCounts = { received: 0, ended: 0, markers: 0 };
  private readonly startEpochMs = Date.now();
  /** Advances run one after another, never interleaved. */
  private chain: Promise<unknown> = Promise.resolve();

  /**
   * Each endpoint's occupancy since the server started, integrated exactly (sim/occupancy.ts):
   * observed before every event, so a request's change at the current ms counts from then on.
   */
  readonly occupancy = new Map<string, Occupancy>();

  /** `settled`: resolves when no webhook attempt is out (the sender's view). */
  constructor(
    private readonly sim: Simulator,
    private readonly settled: () => Promise<void>,
  ) {
    for (const [id, ep] of sim.endpoints) this.occupancy.set(id, new Occupancy(ep, OCCUPANCY_WINDOW_MS, sim.nowMs));
  }

  private observe(): void {
    const now = this.sim.sched.nowMs;
    for (const o of this.occupancy.values()) o.observe(now);
  }

  sync(): void {}
  poke(): void {}
  stop(): void {}

  toEpochMs(virtualMs: number): number {
    return this.startEpochMs + virtualMs;
  }

  /**
   * A lockstep client's own timers, as no-op events in the simulator's queue: inserted when the
   * client sets them, they take their turn among simulator events at the same ms exactly as the
   * client's timers do in-process. An advance with `untilAnswer` stops after each one.
   */
  mark(atMs: readonly number[]): void {
    const onFire = () => void this.requests.markers++;
    for (const t of atMs) this.sim.sched.at(t, onFire);
  }

  /**
   * Runs every event up to now + `ms`; resolves with the new virtual time. `untilAnswer`: stops
   * early, right after the first event that answered a request or made a webhook attempt, so a
   * stepping client sees it at the virtual time it happened.
   */
  advance(ms: number, untilAnswer = false): Promise<number> {
    const p = this.chain.then(() => this.run(ms, untilAnswer));
    this.chain = p.catch(() => undefined);
    return p;
  }

  private async run(ms: number, untilAnswer: boolean): Promise<number> {
    const { sched } = this.sim;
    const target = sched.nowMs + ms;
    await this.awaitWebhooks();
    for (;;) {
      const next = sched.peekMs();
      if (next === undefined || next > target) break;
      const { ended, markers } = this.requests;
      this.observe();
      sched.step();
      const webhook = this.sim.webhooksInFlight > 0;
      if (webhook) await this.awaitWebhooks();
      if (untilAnswer && (webhook || this.requests.ended !== ended || this.requests.markers !== markers)) return sched.nowMs;
    }
    this.observe();
    sched.runUntil(target);
    return sched.nowMs;
  }

  private async awaitWebhooks(): Promise<void> {
    // Bounded: each attempt has its own real-time timeout, so `settled` always resolves.
    while (this.sim.webhooksInFlight > 0) {
      await this.settled();
      // An attempt counted by the core but not by the sender (a replaced sender): let I/O run.
      if (this.sim.webhooksInFlight > 0) await new Promise((r) => setImmediate(r));
    }
  }
}
