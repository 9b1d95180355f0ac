/**
 * The cold-start wait of each job, from the simulator's `job.started` events (sim-events.ts
 * `coldStartMs`). The API's answers do not show it, so only the in-process target can offer it.
 * Listening makes the simulator build its domain events, so this is wired only when asked for.
 */
import type { EventBus } from '../../../sim/event-bus.js';

/** Listens on `bus`; the returned function hands out and forgets a job's wait (Target.watchColdStarts). */
export function watchColdStarts(bus: EventBus, endpointId: string): (jobId: string) => number | undefined {
  // Jobs started and not yet read: an entry per job, removed when its end is read or, for a job
  // nobody reads by this id (an OpenAI answer names `chatcmpl-{id}`), when its result is removed.
  const waits = new Map<string, number>();
  bus.on((e) => {
    if (e.endpointId !== endpointId) return;
    if (e.type === 'job.started') waits.set(e.jobId, (waits.get(e.jobId) ?? 0) + e.coldStartMs);
    else if (e.type === 'job.expired') waits.delete(e.jobId);
  });
  return (jobId) => {
    const ms = waits.get(jobId);
    if (ms !== undefined) waits.delete(jobId);
    return ms;
  };
}
