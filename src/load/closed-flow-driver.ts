/**
 * One closed flow in the run loop (arrivals/closed.ts): each user has one timer, armed at its
 * start time and re-armed when its session ends, at that end plus a think time. A session's
 * intended time is when its user sends: the user waits for its answer by construction, so a slow
 * endpoint slows the loop instead of being hidden from the measure (no coordinated omission, and
 * no arrival rate to fall behind: only the client's own send lag counts as late).
 */
import type { RandomSource } from '../lib/random.js';
import { sampler } from '../sampling/registry.js';
import type { Sampler } from '../sampling/types.js';
import { MIN_CYCLE_MS, userStartMs, type ClosedSpec } from './arrivals/closed.js';
import type { ArrivalShard } from './arrivals/shard.js';
import { FlowSessions, type FlowParts } from './flow-sessions.js';

/** One user of the loop: its timer, when its next session is intended, and its think times. */
class User {
  intendedMs = 0;
  timer: unknown = undefined;
  readonly arrive: () => void;

  constructor(
    driver: ClosedFlowDriver,
    /** Index in the driver's users (its slot), not the user's number in the unsharded loop. */
    slot: number,
    readonly think: Sampler,
  ) {
    this.arrive = () => driver.begin(slot);
  }
}

export class ClosedFlowDriver extends FlowSessions {
  private readonly users: User[] = [];
  /** Users that may still start a session; the flow stops generating when none is left. */
  private remaining = 0;

  constructor(
    flow: FlowParts,
    private readonly spec: ClosedSpec,
    /** Think-time draws: user i has the stream `arrivals/<flow>/user/<i>`, the same in every shard. */
    private readonly rand: RandomSource,
    private readonly durationMs: number,
    /** User i of the loop belongs to shard i mod count; undefined: all users. */
    private readonly shard: ArrivalShard | undefined,
  ) {
    super(flow);
  }

  schedule(): void {
    const { spec } = this;
    const { index, count } = this.shard ?? { index: 0, count: 1 };
    const think = spec.thinkTimeMs;
    // A fixed think time draws nothing: one sampler for all, no stream per user.
    const fixed = typeof think === 'number' || think.dist === 'constant' ? sampler(think, this.rand.stream(`arrivals/${this.name}`)) : undefined;
    for (let i = index; i < spec.users; i += count) {
      this.users.push(new User(this, this.users.length, fixed ?? sampler(think, this.rand.stream(`arrivals/${this.name}/user/${i}`))));
    }
    this.remaining = this.users.length;
    if (this.remaining === 0) this.live.generating--;
    for (let slot = 0; slot < this.users.length; slot++) this.arm(slot, userStartMs(spec, index + slot * count));
  }

  /** User `slot`'s timer: its next session starts now. */
  begin(slot: number): void {
    this.open(this.users[slot]!.intendedMs, slot);
  }

  /** The user's session ended: it thinks, then starts the next (at least MIN_CYCLE_MS after the last start). */
  ended(slot: number): void {
    const u = this.users[slot]!;
    this.arm(slot, Math.max(this.target.now() + u.think(), u.intendedMs + MIN_CYCLE_MS));
  }

  /** Arms user `slot`'s next session at `atMs`, or retires the user when that is past the traffic phase. */
  private arm(slot: number, atMs: number): void {
    if (atMs >= this.durationMs) {
      if (--this.remaining === 0) this.live.generating--;
      return;
    }
    const u = this.users[slot]!;
    u.intendedMs = this.intendedAt(atMs);
    u.timer = this.target.at(atMs, u.arrive, u.timer);
  }
}
