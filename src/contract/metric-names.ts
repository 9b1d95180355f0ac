/**
 * Every metric and span name loadlab exports, in one place: `loadlab_` prefix, snake_case, unit
 * suffix (`_seconds`, `_bytes`, `_total`). Dashboards and tests use only names from this file, and
 * no other file under src/ or bench/ spells a `loadlab_` name (test/telemetry/metric-names-single-source.test.ts).
 * Durations are observed from virtual time and exported in seconds.
 * This module is part of the contract: it imports nothing of the project.
 */

/** What `loadlab serve` exports on /metrics (and metrics.om reuses where the meaning is the same). */
export const METRIC = {
  /** counter {endpoint, kind}: jobs accepted into the queue (kind: run, runsync, openai). */
  jobsAccepted: 'loadlab_jobs_accepted_total',
  /** counter {endpoint, status}: jobs that reached a terminal status. */
  jobsFinished: 'loadlab_jobs_finished_total',
  /** counter {endpoint, reason}: jobs sent back to the queue (crash, retry). */
  jobsRequeued: 'loadlab_jobs_requeued_total',
  /** counter {endpoint, reason}: jobs removed by ttl or the end of retention. */
  jobsExpired: 'loadlab_jobs_expired_total',
  /** counter {endpoint}: queued jobs removed by /purge-queue. */
  jobsPurged: 'loadlab_jobs_purged_total',
  /** histogram {endpoint}: time in the queue before a start, virtual seconds. */
  jobDelay: 'loadlab_job_delay_seconds',
  /** histogram {endpoint, status}: time running until a terminal status, virtual seconds. */
  jobExecution: 'loadlab_job_execution_seconds',
  /** counter {endpoint, operation, cause}: requests answered 429 (cause: rate, concurrency, queue). */
  requestsLimited: 'loadlab_requests_limited_total',
  /** counter {endpoint, outcome}: webhook attempts (delivered, failed, gave-up). */
  webhookAttempts: 'loadlab_webhook_attempts_total',
  /** counter {endpoint, from, to}: worker state transitions. */
  workerTransitions: 'loadlab_worker_transitions_total',
  /** gauge {endpoint, state}: workers per state (initializing, idle, running, throttled, unhealthy). */
  workers: 'loadlab_workers',
  /** gauge {endpoint}: jobs waiting in the queue. */
  queueJobs: 'loadlab_queue_jobs',
  /** gauge: virtual time since the simulation started, seconds. */
  virtualTime: 'loadlab_virtual_time_seconds',
  /** counter {route, status}: HTTP requests answered by `loadlab serve`. */
  httpRequests: 'loadlab_http_requests_total',
  /** histogram {route}: virtual time from arrival to answer of requests held past their arrival, seconds. */
  httpRequestDuration: 'loadlab_http_held_request_duration_seconds',
  /** counter: bytes of request bodies read by `loadlab serve`. */
  httpRequestBodyBytes: 'loadlab_http_request_body_bytes_total',
} as const;

/**
 * metrics.om family names for what only the load client sees (src/report/render-openmetrics.ts,
 * README "metrics.om"). Counter families are named without `_total`; their samples add it.
 */
export const CLIENT_METRIC = {
  /** info {endpoint, scenario, seed, kind, target, causes}: the run the metrics come from; sample `<name>_info`. */
  run: 'loadlab_run',
  /** counter: requests sent, every attempt (per window). */
  requests: 'loadlab_client_requests',
  /** counter: answers with a 2xx status (per window). */
  responses2xx: 'loadlab_client_responses_2xx',
  /** counter: requests the client gave up waiting for (per window). */
  timeouts: 'loadlab_client_timeouts',
  /** counter: jobs read FAILED or TIMED_OUT (per window). */
  jobsFailed: 'loadlab_client_jobs_failed',
  /** counter: 404s for jobs known to exist (per window). */
  expiriesSeen: 'loadlab_client_expiries_seen',
  /** counter: webhook attempts the receiver failed (per window). */
  webhookFailures: 'loadlab_client_webhook_failures',
  /** counter: partial outputs received from /stream or streamed chat (per window). */
  streamChunks: 'loadlab_client_stream_chunks',
  /** counter: arrivals sent later than openModel.lateAfterMs (per window). */
  arrivalsLate: 'loadlab_client_arrivals_late',
  /** counter: arrivals never sent, held by the in-flight cap too long (per window). */
  arrivalsDropped: 'loadlab_client_arrivals_dropped',
  /** gauge: deepest queue a probe saw in the window. */
  queueJobsMax: 'loadlab_client_queue_jobs_max',
  /** gauge: most requests in flight at once in the window. */
  inFlightMax: 'loadlab_client_in_flight_max',
  /** counter {operation, status}: answers by operation and HTTP status (whole run). */
  responses: 'loadlab_client_responses',
  /** counter {operation}: requests re-sent after a 429 and a back-off (whole run). */
  retries429: 'loadlab_client_retries_429',
  /** counter {flow, outcome}: client sessions by flow and how they ended (whole run). */
  sessions: 'loadlab_client_sessions',
  /** counter {state}: worker-seconds by worker state (whole run; in-process only: report.json `workers`). */
  workerSeconds: 'loadlab_client_worker_seconds',
  /** counter {billing}: billed worker-seconds, `flex` and `active` (whole run; in-process only). */
  workerBilledSeconds: 'loadlab_client_worker_billed_seconds',
  /** summary {operation}: intended send to answer, seconds. */
  responseSeconds: 'loadlab_client_response_seconds',
  /** summary {operation}: actual send to answer, seconds. */
  serviceSeconds: 'loadlab_client_service_seconds',
  /** summary: /cancel sent to the answer CANCELLED, seconds. */
  cancelLatencySeconds: 'loadlab_client_cancel_latency_seconds',
  /** summary: acknowledged webhook delivery minus job end, seconds. */
  webhookLatenessSeconds: 'loadlab_client_webhook_lateness_seconds',
  /** summary: actual minus intended send time of every request, seconds. */
  sendLagSeconds: 'loadlab_client_send_lag_seconds',
} as const;

export const SPAN = {
  /** One span per job, from acceptance to its terminal status (or removal). */
  job: 'loadlab.job',
  /** One span per HTTP request served, from arrival to answer. */
  request: 'loadlab.http.request',
} as const;

/** Attribute keys on spans. */
export const ATTR = {
  endpoint: 'loadlab.endpoint',
  jobId: 'loadlab.job.id',
  jobKind: 'loadlab.job.kind',
  jobStatus: 'loadlab.job.status',
  workerId: 'loadlab.worker.id',
  delayMs: 'loadlab.job.delay_ms',
  executionMs: 'loadlab.job.execution_ms',
  route: 'loadlab.http.route',
  method: 'http.request.method',
  statusCode: 'http.response.status_code',
} as const;

/** Histogram buckets in seconds: 5 ms to 30 min, roughly ×2.5 apart. */
export const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300, 600, 1800];
