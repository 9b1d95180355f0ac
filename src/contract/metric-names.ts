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
  /**
   * gauge {endpoint, gpu, state}: an endpoint that lists its GPU types (`gpus`): the workers placed
   * on each type, per state (those waiting for room on any type are in `loadlab_workers` only).
   */
  workersByGpu: 'loadlab_workers_by_gpu',
  /** gauge {endpoint}: jobs waiting in the queue. */
  queueJobs: 'loadlab_queue_jobs',
  /**
   * counter {endpoint, cause}: a load-balancing endpoint's requests its balancer ended without a
   * worker's answer (cause: no-workers, timeout, dropped, worker-timeout, worker-gone).
   */
  balancerFailed: 'loadlab_balancer_requests_failed_total',
  /** gauge {endpoint}: a load-balancing endpoint's requests waiting at its balancer for a worker (strict affinity ones included). */
  balancerPending: 'loadlab_balancer_requests_pending',
  /** gauge {endpoint}: jobs held by workers (in progress; above the running workers when a worker takes several). */
  jobsInProgress: 'loadlab_jobs_in_progress',
  /**
   * gauge {endpoint}: requests in a batch of the endpoint's LLM engines, summed over its workers
   * (vLLM `num_requests_running`; `llm.engine` endpoints only; metrics.om: time average per window).
   */
  engineRunning: 'loadlab_engine_num_requests_running',
  /** gauge {endpoint}: requests a worker holds outside its batch: front end, waiting for a place or KV cache blocks (vLLM `num_requests_waiting`; as engineRunning). */
  engineWaiting: 'loadlab_engine_num_requests_waiting',
  /** gauge {endpoint}: KV cache blocks held over the blocks of the workers up, 0–1 (vLLM `kv_cache_usage`; only with `llm.engine.kvCacheTokens`; as engineRunning). */
  engineKvCacheUsage: 'loadlab_engine_kv_cache_usage_ratio',
  /** counter {endpoint}: sequences preempted, their KV cache blocks taken back (vLLM `num_preemptions`; `llm.engine` endpoints only). */
  enginePreemptions: 'loadlab_engine_num_preemptions_total',
  /**
   * counter {endpoint}: prompt tokens of the requests that joined a batch (their first join), and of
   * those the tokens found in their worker's prefix cache (vLLM `prefix_cache_queries`,
   * `prefix_cache_hits`; hit rate: the rate of one over the other; endpoints with
   * `llm.engine.prefixCaching` only).
   */
  enginePrefixCacheQueries: 'loadlab_engine_prefix_cache_queries_total',
  enginePrefixCacheHits: 'loadlab_engine_prefix_cache_hits_total',
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
 * The load client's own families: metrics.om (src/report/render-openmetrics.ts, per window, with
 * timestamps) and the runner's live `/metrics` (`loadlab run --metrics-listen`, the same names and
 * labels, no timestamps). Every series also carries `endpoint` and `scenario`: backfilled data has
 * no scrape target to tell runs apart. Counter families are named without `_total`; their samples
 * add it. Histograms are classic Prometheus histograms with DURATION_BUCKETS_S (serve's buckets),
 * the stream times (TTFT, ITL, TPOT) with the finer STREAM_BUCKETS_S.
 * The Grafana dashboard "loadlab — run" (grafana/) reads only these and the serve names reused
 * below (METRIC.requestsLimited, METRIC.jobsFinished, METRIC.webhookAttempts, all with `scenario`).
 */
export const CLIENT_METRIC = {
  /** info {endpoint, scenario, seed, kind, target, causes}: the run the metrics come from; sample `<name>_info`. */
  run: 'loadlab_run',
  /** gauge: when the run started, Unix seconds (Grafana annotation "run start"). */
  runStartTime: 'loadlab_client_run_start_time_seconds',
  /** gauge: when the run ended, Unix seconds; present once it has ended (annotation "run end"). */
  runEndTime: 'loadlab_client_run_end_time_seconds',
  /** counter {operation}: requests sent, every attempt, 429 re-sends included. */
  requests: 'loadlab_client_requests',
  /** counter {operation, status}: answers by operation and HTTP status; status 0: no answer (timeout or transport error). */
  responses: 'loadlab_client_responses',
  /** counter: answers with a 2xx status. */
  responses2xx: 'loadlab_client_responses_2xx',
  /** counter: requests the client gave up waiting for. */
  timeouts: 'loadlab_client_timeouts',
  /** counter: jobs read FAILED or TIMED_OUT. */
  jobsFailed: 'loadlab_client_jobs_failed',
  /** counter: 404s for jobs known to exist (the result expired before the client read it). */
  expiriesSeen: 'loadlab_client_expiries_seen',
  /** counter: webhook attempts the receiver failed. */
  webhookFailures: 'loadlab_client_webhook_failures',
  /** counter: partial outputs received from /stream or streamed chat. */
  streamChunks: 'loadlab_client_stream_chunks',
  /** counter: arrivals sent later than openModel.lateAfterMs. */
  arrivalsLate: 'loadlab_client_arrivals_late',
  /** counter: arrivals never sent, held by the in-flight cap too long. */
  arrivalsDropped: 'loadlab_client_arrivals_dropped',
  /** gauge: deepest queue a probe saw in the window (metrics.om) or the last probe (live). */
  queueJobsMax: 'loadlab_client_queue_jobs_max',
  /** gauge {operation}: most requests of the operation in flight at once in the window (metrics.om) or now (live). */
  inFlightMax: 'loadlab_client_in_flight_max',
  /** gauge: jobs waiting in the endpoint's queue (metrics.om: time average per window; live: the last sample). */
  endpointQueueJobs: 'loadlab_client_endpoint_queue_jobs',
  /** gauge: jobs queued or in progress at the endpoint (as endpointQueueJobs). */
  endpointJobsInSystem: 'loadlab_client_endpoint_jobs_in_system',
  /** gauge {state}: the endpoint's workers by state (as endpointQueueJobs). */
  endpointWorkers: 'loadlab_client_endpoint_workers',
  /** gauge {gpu, state}: an endpoint that lists its GPU types: its workers placed on each type, by state (as endpointWorkers; metrics.om only). */
  endpointWorkersByGpu: 'loadlab_client_endpoint_workers_by_gpu',
  /**
   * gauge {limit, operation?}: the documented limit the scenario's endpoint runs under, for headroom
   * panels. limit="rate" {operation}: requests per second (the per-10 s limit ÷ 10);
   * limit="concurrency" {operation}: requests in flight; limit="queue": queue depth where
   * throttling starts; limit="workers": workersMax.
   */
  limit: 'loadlab_client_limit',
  /** counter {operation}: requests re-sent after a 429 and a back-off. */
  retries429: 'loadlab_client_retries_429',
  /** counter {flow, outcome}: client sessions by flow and how they ended. */
  sessions: 'loadlab_client_sessions',
  /** counter {state}: worker-seconds by worker state (whole run; in-process only: report.json `workers`). */
  workerSeconds: 'loadlab_client_worker_seconds',
  /** counter {billing}: billed worker-seconds, `flex` and `active` (whole run; in-process only). */
  workerBilledSeconds: 'loadlab_client_worker_billed_seconds',
  /** counter {gpu, state}: worker-seconds on each GPU type by state (whole run; in-process, an endpoint that lists its gpus: report.json `workers.byGpu`). */
  gpuWorkerSeconds: 'loadlab_client_gpu_worker_seconds',
  /** counter {gpu, billing}: billed worker-seconds on each GPU type, `flex` and `active` (as gpuWorkerSeconds). */
  gpuWorkerBilledSeconds: 'loadlab_client_gpu_worker_billed_seconds',
  /** counter {flow}: prompt tokens a streaming flow sent (whole run: report.json `flows.*.stream.promptTokens`). */
  streamPromptTokens: 'loadlab_client_stream_prompt_tokens',
  /** counter {flow}: of those, tokens the answers' usage told were served from the prefix cache (flows whose answers told it: `cachedPromptTokens`). */
  streamCachedPromptTokens: 'loadlab_client_stream_cached_prompt_tokens',
  /** histogram {operation}: intended send to answer, seconds. */
  responseSeconds: 'loadlab_client_response_seconds',
  /** histogram {flow}: a job's intended submission to its terminal status read, seconds. */
  turnaroundSeconds: 'loadlab_client_turnaround_seconds',
  /** histogram {flow}: delayTime of terminal status bodies read by the flow's clients, seconds. */
  queueDelaySeconds: 'loadlab_client_queue_delay_seconds',
  /** histogram {flow}: executionTime of terminal status bodies read by the flow's clients, seconds. */
  executionSeconds: 'loadlab_client_execution_seconds',
  /** histogram {flow}: wait for a starting worker (in-process only; report.json `coldStartMs`), seconds. */
  coldStartSeconds: 'loadlab_client_cold_start_seconds',
  /** histogram {flow}: intended send to a stream's first content chunk (time to first token), seconds; STREAM_BUCKETS_S. */
  ttftSeconds: 'loadlab_client_ttft_seconds',
  /** histogram {flow}: each gap between consecutive content chunks of a stream (inter-token latency), seconds; STREAM_BUCKETS_S. */
  itlSeconds: 'loadlab_client_itl_seconds',
  /** histogram {flow}: (last − first content chunk) / (tokens − 1) of a stream (time per output token), seconds; STREAM_BUCKETS_S. */
  tpotSeconds: 'loadlab_client_tpot_seconds',
  /** counter {flow}: requests whose stream carried content (run-stream, streamed openai-chat). */
  streamRequests: 'loadlab_client_stream_requests',
  /** counter {flow}: output tokens of streamed requests (usage.completion_tokens, else content chunks). */
  streamTokens: 'loadlab_client_stream_tokens',
  /** counter {flow}: streamed requests within the flow's goodput targets (flows with `goodput:` only). */
  streamGoodRequests: 'loadlab_client_stream_good_requests',
  /** summary {operation}: actual send to answer, seconds (whole run, at its end). */
  serviceSeconds: 'loadlab_client_service_seconds',
  /** summary: /cancel sent to the answer CANCELLED, seconds (whole run, at its end). */
  cancelLatencySeconds: 'loadlab_client_cancel_latency_seconds',
  /** summary: acknowledged webhook delivery minus job end, seconds (whole run, at its end). */
  webhookLatenessSeconds: 'loadlab_client_webhook_lateness_seconds',
  /** summary: actual minus intended send time of every request, seconds (whole run, at its end). */
  sendLagSeconds: 'loadlab_client_send_lag_seconds',
} as const;

/** Process metrics (prom-client's names) that `serve` and the live runner export beside their own. */
export const PROCESS_METRIC = {
  /** gauge: resident set size, bytes. */
  residentMemory: 'process_resident_memory_bytes',
  /** gauge: V8 heap in use, bytes. */
  heapUsed: 'nodejs_heap_size_used_bytes',
} as const;

export const SPAN = {
  /** One span per job, from acceptance to its terminal status (or removal). */
  job: 'loadlab.job',
  /** One span per HTTP request served, from arrival to answer. */
  request: 'loadlab.http.request',
  /** `loadlab run`: one span per job session, from its submission to the terminal status it saw. */
  session: 'loadlab.client.session',
  /** `loadlab run`: a child of the session span per request the session sent. */
  clientRequest: 'loadlab.client.request',
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
  /** `loadlab run` spans: the scenario's flow, the request's operation, the 429's limit, how the session ended. */
  flow: 'loadlab.flow',
  operation: 'loadlab.operation',
  limitCause: 'loadlab.limit.cause',
  sessionOutcome: 'loadlab.session.outcome',
} as const;

/** Histogram buckets in seconds: 5 ms to 30 min, roughly ×2.5 apart. */
export const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300, 600, 1800];

/**
 * Bucket bounds of the stream time histograms (TTFT, ITL, TPOT) in ms: every ms up to 10 (a token
 * every ~6 ms on an H100: 5, 6 and 7 ms fall in buckets of their own, so histogram_quantile is
 * within a ms there), then roughly ×1.5 steps to 30 min for TTFT under load.
 */
export const STREAM_BUCKETS_MS = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12.5, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000, 30_000, 60_000, 300_000,
  1_800_000,
];
/** STREAM_BUCKETS_MS in seconds (divided, so each prints as its decimal: 0.007, not 0.007000000000000001). */
export const STREAM_BUCKETS_S = STREAM_BUCKETS_MS.map((ms) => ms / 1000);
