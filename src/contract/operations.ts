/** The API operations (each with its own rate and concurrency limit) and their documented limits. */

export const OPERATIONS = [
  'run',
  'runsync',
  'status',
  'status-sync',
  'stream',
  'cancel',
  'retry',
  'purge-queue',
  'health',
  'requests',
  'openai',
  'lb',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * RunPod's documented limits per operation. `/retry` and `/health` are not documented: loadlab gives `/retry`
 * the limits of `/cancel` and `/health` 1000 per 10 s with no concurrency limit (both configurable).
 * `null` means unlimited. `lb`: a request to a load-balancing endpoint (any path under its base):
 * RunPod documents no rate or concurrency limit there (the balancer holds what no worker can take).
 */
export const DEFAULT_LIMITS: Record<Operation, { rate: number | null; concurrency: number | null }> = {
  run: { rate: 1000, concurrency: 200 },
  runsync: { rate: 2000, concurrency: 400 },
  status: { rate: 2000, concurrency: 400 },
  'status-sync': { rate: 2000, concurrency: 400 },
  stream: { rate: 2000, concurrency: 400 },
  cancel: { rate: 100, concurrency: 20 },
  retry: { rate: 100, concurrency: 20 },
  'purge-queue': { rate: 2, concurrency: null },
  health: { rate: 1000, concurrency: null },
  requests: { rate: 10, concurrency: 2 },
  openai: { rate: 2000, concurrency: 400 },
  lb: { rate: null, concurrency: null },
};
