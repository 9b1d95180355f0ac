/**
 * The GPU-types tests' scenario, raw: two jobs at once (2 s each) on a cold endpoint (cold start
 * 10 s, idle timeout 5 s, QUEUE_DELAY 1 s, workersMax 2). `endpoint`: keys over its endpoint's
 * (gpus, hostCapacity, workersMin …).
 */
export function twoColdJobs(name: string, endpoint: Record<string, unknown> = {}): Record<string, any> {
  return {
    name,
    seed: 1,
    durationMs: 30_000,
    drainMs: 30_000,
    endpoint: {
      id: 'cold',
      workersMax: 2,
      coldStartMs: 10_000,
      jobDurationMs: 2000,
      idleTimeoutMs: 5000,
      scaler: { type: 'QUEUE_DELAY', value: 1 },
      ...endpoint,
    },
    traffic: [
      {
        name: 'two-jobs',
        arrival: { process: 'replay', timestampsMs: [0, 0] },
        client: { behaviour: 'run-poll', poll: { baseMs: 1000, factor: 1, maxMs: 1000, jitter: 0 } },
      },
    ],
  };
}
