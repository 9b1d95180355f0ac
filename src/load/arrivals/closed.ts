/**
 * `{process: closed, users, thinkTimeMs?, rampUpMs?}`: a closed loop of `users` clients. Each user
 * keeps one session going: when a session ends, the user thinks (`thinkTimeMs`, drawn from its own
 * seeded stream) and starts the next, until the traffic phase ends. The rate is an output (users
 * over the cycle time, which grows with the endpoint's answers), not an input as in the open
 * processes, so this is no ArrivalKind: the run loop drives it from session ends
 * (closed-flow-driver.ts) instead of pulling a generator of times fixed in advance.
 */
import { z } from 'zod';
import { durationSchema, meanMs } from '../../contract/duration-spec.js';

/** Most users of one closed flow: one timer and one random stream each. */
export const CLOSED_USERS_MAX = 100_000;

/**
 * The shortest time (ms) from one session start of a user to its next. A session can end in the
 * virtual ms it began (a `/health` answered at once): with no think time its user would start
 * again at that same instant for ever, so a user starts at most one session per ms.
 */
export const MIN_CYCLE_MS = 1;

export const closedSchema = z.strictObject({
  process: z.literal('closed').meta({
    description:
      'Closed loop: `users` clients, each starting its next session when its last one ends plus a think time (fixed concurrency, as vllm bench serve --max-concurrency or k6 constant-vus).',
  }),
  users: z
    .number()
    .int()
    .min(1)
    .max(CLOSED_USERS_MAX)
    .meta({ description: `Clients in the loop, each with at most one session at a time (1 to ${CLOSED_USERS_MAX}).`, examples: [8, 64] }),
  thinkTimeMs: durationSchema.default(0).meta({
    description:
      "Pause (ms) between a user's session end and its next session: whole ms or a distribution object keyed by `dist`, drawn from the user's own seeded stream. Default: 0.",
    examples: [0, 500, { dist: 'lognormal', medianMs: 1000, p95Ms: 5000 }],
  }),
  rampUpMs: z
    .number()
    .int()
    .nonnegative()
    .max(30 * 86_400_000)
    .default(0)
    .meta({
      description:
        'Spread the first sessions evenly over this many ms: user i (from 0) starts at floor(i × rampUpMs / users). A user whose start falls at or after durationMs never starts. Default: 0 (every user at 0 ms).',
      examples: [0, 30_000],
    }),
});
export type ClosedSpec = z.infer<typeof closedSchema>;

/** When user `i` (0 ≤ i < users) starts its first session, in ms from the start of the run. */
export function userStartMs(spec: ClosedSpec, i: number): number {
  return Math.floor((i * spec.rampUpMs) / spec.users);
}

/** Users of shard `index` of `count`: user i goes to shard i mod count. */
export function usersOfShard(users: number, shard: { index: number; count: number } | undefined): number {
  return shard === undefined ? users : Math.max(0, Math.ceil((users - shard.index) / shard.count));
}

/** Mean ms from a session start of a user to its next when a session lasts `sessionMs` on average. */
export function cycleMs(spec: ClosedSpec, sessionMs: number): number {
  return Math.max(MIN_CYCLE_MS, sessionMs + meanMs(spec.thinkTimeMs));
}

/**
 * Sessions the users start in [0, durationMs) when every cycle lasts `cycleMs(spec, sessionMs)`:
 * exact for constant session and think times. With `sessionMs` the least a session takes (its job
 * time), it is an upper bound: queueing only makes sessions longer and the loop slower.
 */
export function closedSessions(spec: ClosedSpec, durationMs: number, sessionMs: number): number {
  const c = cycleMs(spec, sessionMs);
  let n = 0;
  for (let i = 0; i < spec.users; i++) {
    const s = userStartMs(spec, i);
    if (s < durationMs) n += Math.ceil((durationMs - s) / c);
  }
  return n;
}

/**
 * The most sessions the users start in any window of `windowMs`: each user one per cycle, and all
 * of them at once at the start (without rampUpMs), so a window holds a whole cycle of every user.
 */
export function closedPeakIn(spec: ClosedSpec, sessionMs: number, windowMs: number): number {
  return spec.users * Math.ceil(windowMs / cycleMs(spec, sessionMs));
}
