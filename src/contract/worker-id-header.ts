/**
 * The header of worker affinity on a load-balancing endpoint: every answer a worker gave names it,
 * and a request sends it back to ask for that worker (docs/endpoint.md "Load-balancing endpoints").
 * Lower case, as Node reads header names.
 */
export const WORKER_ID_HEADER = 'x-runpod-worker-id';
