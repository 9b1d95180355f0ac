/**
 * The versioned result of a run: plain data, written as report.json and read back
 * by every renderer. Mergeable by design: counters add, histograms are HDR encodings that add,
 * the timeline is per-window counters (add) and maxima (max). Wall-clock facts live only under
 * `wallClock`, so the same scenario and seed on the embedded simulator give the same bytes
 * everywhere else.
 */
import type { EncodedHistogram } from './histogram.js';
import type { BalancerCause, WorkerState } from '../contract/sim-events.js';

/**
 * 2: per-flow job histograms (`flows.*.jobs`), per-window histograms (`windows`), `aborted`.
 * 3: per-window requests by operation (`windows.requests`), the endpoint over time
 * (`windows.endpoint`), `interrupted`, `wallClock.metricsStartMs`, `workers` (worker-seconds and
 * cost). Later, still 3 (optional fields, absent from earlier reports): per-window answers by
 * operation and status (`windows.responses`), per-window in-flight maxima by operation
 * (`windows.inFlightMax`), webhooks given up per window (`timeline.webhookGaveUp`), streamed
 * answers per flow (`flows.*.stream`, `windows.streams`); stream times at 0.01 ms (their histograms
 * say `scale: 100` and `timeScale: 100`; without them, whole ms); a closed flow's users (`flows.*.users`);
 * an LLM endpoint's batching engines over time and for the run (`windows.endpoint.engine`, `engine`).
 * Versions 1 and 2 still load.
 */
export const RUN_RESULT_VERSION = 3;
export type RunResultVersion = 1 | 2 | 3;

export type LimitCauseName = 'rate' | 'concurrency' | 'queue' | 'unknown';

export interface OperationStats {
  /** Requests sent (every attempt, 429 re-sends included). */
  requests: number;
  /** Answers by HTTP status; `"0"` is no answer (client timeout or transport error). */
  byStatus: Record<string, number>;
  /** 429s by the limit hit. */
  limited: Record<LimitCauseName, number>;
  /**
   * Operation `lb` (a load-balancing endpoint's requests): those its balancer ended rather than a
   * worker answering, by cause: `no-workers` (503), `timeout` (504), `dropped` (502),
   * `worker-timeout` (400) and `worker-gone` (404), the last two of strict affinity. Absent on
   * other operations.
   */
  balancerFailed?: Record<BalancerCause, number>;
  /** 429s re-sent after a back-off. */
  retried429: number;
  clientTimeouts: number;
  transportErrors: number;
  /** Intended send → answer (includes any wait before sending: no coordinated omission). */
  responseMs: EncodedHistogram;
  /** Actual send → answer. */
  serviceMs: EncodedHistogram;
}

export interface FlowStats {
  operation: string;
  behaviour: string;
  arrival: string;
  /** A closed flow's users this run drove (a shard: its share; merged: their sum); absent on an open flow (version 3, optional). */
  users?: number;
  /** Sessions started (one per arrival that was not dropped). */
  sessions: number;
  /** How sessions ended: job status (COMPLETED, FAILED, …), `ok`, `rejected`, `expired`, `gave-up`, `timeout`, `error`, `unfinished`. */
  outcomes: Record<string, number>;
  /** This flow's jobs, from terminal statuses read (version 2). */
  jobs?: FlowJobStats;
  /** This flow's streamed answers: only on a run-stream or streamed openai-chat flow (version 3, optional). */
  stream?: FlowStreamStats;
  /** A multi-turn chat flow's sessions (`openai-chat` with `turns`; version 3, optional). */
  turns?: FlowTurnStats;
}

/**
 * A multi-turn flow's sessions: each session is one conversation of turns, each turn one request
 * (its figures are in operations, jobs and the stream section as any request's).
 */
export interface FlowTurnStats {
  /** Turns started: requests sent as turns (their 429 re-sends aside), by every session, ended or not. */
  total: number;
  /** Turns of each session that ended, whatever its outcome (the turn that failed included): whole turns. */
  perSession: EncodedHistogram;
  /** Sessions that answered every turn: the first turn's intended send → the last answer, think times included (ms). */
  sessionMs: EncodedHistogram;
}

/**
 * A flow's streamed answers, one sample per request whose stream carried content: a run-stream
 * session (each item of a `/stream` answer is one content chunk, arriving with that answer) or a
 * streamed openai-chat request (each server-sent event with non-empty content is one). Times are
 * from the session's intended send (no coordinated omission).
 */
export interface FlowStreamStats {
  /** Requests whose stream carried at least one content chunk (`broken` included). */
  requests: number;
  /** Of those, streams that broke before their end (transport error, client timeout): what arrived is counted. */
  broken: number;
  /** Output tokens: `usage.completion_tokens` when the stream carried it, else its content chunks. */
  tokens: number;
  /**
   * Prompt tokens of the flow's requests as sent (4 characters a token: contract/prompt-tokens.ts),
   * each request once, whatever its answer; absent in older reports.
   */
  promptTokens?: number;
  /** Requests within the flow's `goodput` targets (a broken stream never is); absent: the flow sets none. */
  good?: number;
  /** The flow's goodput targets (ms), as the scenario set them. */
  goodputTargets?: { ttftMs?: number; tpotMs?: number };
  /**
   * Prompt tokens the streamed answers' usage told were served from the server's prefix cache
   * (`usage.prompt_tokens_details.cached_tokens`: the simulator with `llm.engine.prefixCaching`,
   * vLLM with --enable-prompt-tokens-details), and the flow's prefix cache hit rate: those over
   * `promptTokens` (null: no prompt token). Absent: no answer told (version 3, optional).
   */
  cachedPromptTokens?: number;
  prefixCacheHitRate?: number | null;
  /** Intended send → first content chunk (scale 100: 0.01 ms resolution; older reports: whole ms). */
  ttftMs: EncodedHistogram;
  /** Each gap between consecutive content chunks of a request (scale 100, as `ttftMs`). */
  itlMs: EncodedHistogram;
  /** (last − first content chunk) / (tokens − 1), for requests of two tokens or more (scale 100, as `ttftMs`). */
  tpotMs: EncodedHistogram;
  /** Output tokens per second of each request: tokens / (last content chunk − intended send), whole tokens/s. */
  tokensPerS: EncodedHistogram;
}

/** A flow's streamed answers per window (of the stream's last content chunk); `good` when the flow has goodput targets. */
export interface StreamWindows {
  /**
   * The `ttftMs`, `itlMs` and `tpotMs` windows hold ms × timeScale: 100, hundredths of a ms
   * (stream-scale.ts); absent: 1, whole ms (older reports). `tokensPerS` holds whole tokens/s.
   */
  timeScale?: number;
  ttftMs: string[];
  itlMs: string[];
  tpotMs: string[];
  tokensPerS: string[];
  requests: number[];
  tokens: number[];
  good?: number[];
}

/** A stream histogram's name in `FlowStreamStats` and `StreamWindows`. */
export type StreamSeries = 'ttftMs' | 'itlMs' | 'tpotMs' | 'tokensPerS';

/** Job times of one flow (ms); one sample per terminal status read. */
export interface FlowJobStats {
  /** The session's intended submission time → the client saw the terminal status. */
  turnaroundMs: EncodedHistogram;
  /** `delayTime` of terminal status bodies. */
  queueDelayMs: EncodedHistogram;
  /** `executionTime` of terminal status bodies. */
  executionMs: EncodedHistogram;
  /**
   * How long the job waited for a starting worker (docs/thresholds.md `cold_start`), one sample per
   * terminal status read of a job that started; 0 when a ready worker took it. Only from a target
   * that sees the simulator (in-process); absent otherwise.
   */
  coldStartMs?: EncodedHistogram;
}

/** A job histogram's name in `FlowJobStats` and in `Windows.flows`. */
export type JobSeries = keyof FlowJobStats;
/** One flow's per-window job histograms: a series is present when `FlowJobStats` has it. */
export type FlowWindows = { [K in JobSeries]: string[] };

/**
 * Per-window HDR histograms (version 2): index i covers [i × windowMs, (i + 1) × windowMs) of the
 * time a sample was recorded (the answer, or the terminal status read). Each entry is HdrHistogram
 * V2 compressed base64, `""` for an empty window. `windowMs` is 10 s, coarser for long runs
 * (window-size.ts).
 */
export interface Windows {
  windowMs: number;
  /** Per operation: response time (intended send → answer). */
  responseMs: Record<string, string[]>;
  /** Per flow: the job histograms. */
  flows: Record<string, FlowWindows>;
  /** Per operation: requests sent in the window, 429 re-sends included (version 3). */
  requests?: Record<string, number[]>;
  /** The endpoint over time (version 3; absent when the target shows nothing of it). */
  endpoint?: EndpointWindows;
  /**
   * Per operation, per HTTP status (`"0"`: no answer, as `byStatus`): answers in the window of the
   * answer; each status's windows add up to its `byStatus` count (version 3, optional).
   */
  responses?: Record<string, Record<string, number[]>>;
  /**
   * Per operation: most requests in flight at once in the window (the level it started with
   * counts), so the largest equals `headroom` `peakInFlight` (version 3, optional).
   */
  inFlightMax?: Record<string, number[]>;
  /** Per streaming flow: its streamed answers (version 3, optional; absent without a streaming flow). */
  streams?: Record<string, StreamWindows>;
}

/**
 * Time averages of the endpoint's state per window (same windows as `Windows`), rounded to 3
 * decimals. `simulator`: integrated exactly over the run's clock from the simulator's own state
 * (in-process and lockstep). `sampled`: the mean of the client's `/health` answers in the window
 * (HTTP targets; -1 where no answer fell in the window).
 */
export interface EndpointWindows {
  source: 'simulator' | 'sampled';
  /** Jobs waiting in the queue. */
  queueLength: number[];
  /** Jobs in the system: queued or in progress. */
  jobsInSystem: number[];
  /** Workers by state. */
  workers: Record<WorkerState, number[]>;
  /** The batching engines of an `llm.engine` endpoint (source `simulator` only; version 3, optional). */
  engine?: EngineWindows;
  /**
   * An endpoint that lists its GPU types (`endpoint.gpus`; /health `workers.byGpu` when sampled):
   * the workers placed on each type by state, in priority order (version 3, optional). A worker
   * waiting for room on every type is in `workers.throttled` only.
   */
  byGpu?: GpuWindows[];
}

/** One GPU type's workers per window, by state (as `EndpointWindows.workers`). */
export interface GpuWindows {
  gpu: string;
  workers: Record<WorkerState, number[]>;
}

/**
 * An LLM endpoint's batching engines per window, summed over its workers, as vLLM's scheduler
 * reports them: requests in a batch (`num_requests_running`) and held by a worker but not in its
 * batch (`num_requests_waiting`: in the API server's front end, or waiting for a place in the
 * batch or for KV cache blocks), time averages rounded to 3 decimals like the rest of
 * `EndpointWindows`; the KV cache's usage (`kv_cache_usage`, 0–1: blocks held over the blocks of
 * the workers up), only when the cache is modelled (`llm.engine.kvCacheTokens`); sequences
 * preempted (`num_preemptions`) in the window. -1: no view of the endpoint in that window (a merge).
 */
export interface EngineWindows {
  running: number[];
  waiting: number[];
  /** Time average of the usage (0–1). */
  kvCacheUsage?: number[];
  /** The most usage held in the window (0–1). */
  kvCacheUsageMax?: number[];
  preemptions: number[];
  /**
   * With `llm.engine.prefixCaching`: prompt tokens of the requests that joined a batch for the first
   * time in the window (vLLM `prefix_cache_queries`), and of those the tokens found in their
   * worker's prefix cache (`prefix_cache_hits`). Absent without prefix caching.
   */
  prefixCacheQueries?: number[];
  prefixCacheHits?: number[];
}

/**
 * The batching engines over the whole run (`windows.endpoint.engine` summed up): time averages
 * over the run's length, rounded to 3 decimals.
 */
export interface EngineSummary {
  /** Mean requests running in a batch. */
  runningMean: number;
  /** Mean requests waiting inside the workers (not in a batch). */
  waitingMean: number;
  /** Mean and most KV cache usage (0–1); only with a modelled cache. */
  kvCacheUsageMean?: number;
  kvCacheUsagePeak?: number;
  /** Sequences preempted in the run. */
  preemptions: number;
  /**
   * With prefix caching: the run's prefix cache queries and hits (prompt tokens, as the windows),
   * and the hit rate, hits over queries to 4 decimals (null: no query).
   */
  prefixCacheQueries?: number;
  prefixCacheHits?: number;
  prefixCacheHitRate?: number | null;
  /**
   * The share of request time spent waiting inside the engines: the time requests waited inside
   * a worker over the time they spent at the endpoint (queued or held by a worker), from the two
   * time averages (Little's law: waitingMean ÷ jobs in system). null: no request was there.
   */
  waitingShareOfRequestTime: number | null;
}

/**
 * What the endpoint's workers did and what they are billed (version 3; only from a target that
 * sees every worker's start and stop, in-process; absent otherwise and from older reports). The
 * billing rule is `loadlab plan`'s (worker-bill.ts, docs/plan.md "Cost").
 */
export interface WorkersSection {
  /** Workers started in all (the workersMin started with the endpoint included). */
  started: number;
  /**
   * Workers whose start (cold, FlashBoot, a restart) ran past the endpoint's initTimeoutMs and left
   * them unhealthy for the rest of the run; absent when none did.
   */
  unhealthyOnStart?: number;
  workersMin: number;
  /** Worker-seconds in each state, summed over workers up to the end of the run (3 decimals). */
  secondsByState: Record<WorkerState, number>;
  /**
   * Billed worker-seconds: `active` = workersMin × the run's length, rounded up; `flex` = each
   * other worker from its start to its stop (idle-timeout tail included, also past the run's
   * end), rounded up per worker, counting only the time in `billing.billedStates`.
   */
  billedSeconds: { active: number; flex: number };
  /** The billing rule and price book of this bill (version 3, optional; absent from reports before the 2026 rule, which billed initializing and unhealthy). */
  billing?: BillingSection;
  /** Dollars at the run's prices (6 decimals); absent when no price was given. */
  cost?: WorkersCost;
  /**
   * An endpoint that lists its GPU types (`endpoint.gpus`): each type's workers, in priority
   * order; the figures above are their sums. Absent otherwise.
   */
  byGpu?: GpuWorkers[];
}

/** The workers placed on one GPU type and their bill (worker-bill.ts GpuBill; active seconds shared out by the time each type's active workers held a slot). */
export interface GpuWorkers {
  gpu: string;
  /** Workers placed on this type (a worker throttled for want of room on every type is on none until it starts). */
  started: number;
  /** Worker-seconds of this type's workers in each state (3 decimals; time waiting for a host is on no type). */
  secondsByState: Record<WorkerState, number>;
  /** `active` 3 decimals (a share of the endpoint's); `flex` whole seconds. */
  billedSeconds: { active: number; flex: number };
  /** With prices: this type's per-second prices and its dollars (6 decimals). */
  cost?: { prices: { flexPerSec: number; activePerSec: number }; perRun: number };
}

/** The billing rule a bill was made under (worker-bill.ts) and, with a GPU's prices, the price book they come from (prices.ts). */
export interface BillingSection {
  /** Time initializing (the cold start) is billed: the endpoint's `billing.initializing`. */
  initializing: boolean;
  /** The worker states whose time is billed (throttled and unhealthy never are). */
  billedStates: WorkerState[];
  /** With a GPU's prices: the price book's name (`--price-book`: 2026, 2025), its date, and the GPU. */
  priceBook?: string;
  asOf?: string;
  gpu?: string;
}

export interface WorkersCost {
  /**
   * Per worker-second. `gpu`: this GPU's prices in the price book `priceBook` (optional: absent
   * before price books, when the table was the 2025 one), dated `asOf`; absent: given as numbers
   * (--price-flex/--price-active).
   */
  prices: { flexPerSec: number; activePerSec: number; gpu?: string; asOf?: string; priceBook?: string };
  /** An endpoint listing its GPU types: `prices` is the first type's, `byGpu` every type's cost (`workers.byGpu`). */
  perRun: number;
  /** The run's cost over its length (traffic and drain), scaled to an hour. */
  perHour: number;
  /** Over the jobs that completed; null: none did. */
  per1000Jobs: number | null;
}

export interface JobStats {
  /**
   * Jobs the API accepted: an id came back, or a held /runsync or OpenAI request ended with the
   * job's own 404 (removed) or failure status.
   */
  accepted: number;
  /** Final status per job: the terminal status its session ended on (a retried job counts once). */
  finalStatus: Record<string, number>;
  /**
   * Every accepted job once, by how its session ended: its final status (COMPLETED, FAILED,
   * CANCELLED, TIMED_OUT), `purged` or `expired` (a 404: purged when a /purge-queue that removed
   * jobs came after the job was last seen queued), `gave-up`, `webhook-lost`, or `unfinished`
   * (still followed at the end of the run). Sums to `accepted`. Added in version 1 (absent from
   * older reports).
   */
  outcomes?: Record<string, number>;
  /** Accepted jobs removed from the queue by /purge-queue (`outcomes.purged`). Added in version 1 (absent from older reports). */
  purged?: number;
  /** `delayTime` of terminal status bodies. */
  queueDelayMs: EncodedHistogram;
  /** `executionTime` of terminal status bodies. */
  executionMs: EncodedHistogram;
  /** 404 for a job known to exist: its result expired (retention or ttl) before the client read it. */
  retentionExpiriesSeen: number;
  /** /retry calls that re-queued a FAILED or TIMED_OUT job. */
  retriedByClient: number;
  /** /cancel sent → answer CANCELLED. */
  cancelLatencyMs: EncodedHistogram;
  cancelled: number;
}

export interface WebhookStats {
  /** Attempts that reached the receiver. */
  attempts: number;
  delivered: number;
  /** Attempts the receiver failed. */
  failedAttempts: number;
  /** Attempts after the first for the same job. */
  retries: number;
  /** Jobs whose webhook was never acknowledged (the sender gave up). */
  gaveUp: number;
  /** Acknowledged delivery − job end (queue + execution after submission). */
  latenessMs: EncodedHistogram;
  /**
   * Requests the receiver answered 404 and did not record: another path, a missing or wrong
   * token, another method than POST. Runs over HTTP with a run-webhook flow only.
   */
  refused?: number;
  /** POSTs to the receiver's URL that were no delivery (400: not a JSON object with a string `id`; 413: over 1 MiB). Runs over HTTP with a run-webhook flow only. */
  malformed?: number;
}

/**
 * What a run against an endpoint at a URL read of the endpoint itself (`loadlab calibrate`'s
 * input). Times are the run's clock: ms since it started.
 */
export interface ObservedEndpoint {
  /** `executionTime` of COMPLETED status bodies: how many were read, and up to 10 000 of them (a uniform sample when more). */
  executionMs: { count: number; samples: number[] };
  /**
   * Every worker a terminal status body named (`workerId`), in the order of its first job's start;
   * a row per worker: its first job's start (the submission's send + `delayTime`) and `delayTime`,
   * its last job's end, and how many jobs it ran. Up to 50 000 workers (`dropped`: more were seen).
   * Of a load-balancing endpoint (`balancer` present), every worker an answer's
   * `X-Runpod-Worker-Id` named, with the columns of balancer-observations.ts: its first request's
   * send and time to response, its last request's end, its requests, and whether the first was
   * an `http` one.
   */
  workers: { columns: string[]; rows: number[][]; dropped?: number };
  /**
   * `/health` answers where a count changed, each with the answer before it, so two consecutive
   * rows bound when the change happened; the last answer ends the list. A row: the time read,
   * jobs in queue and in progress, then workers by state. Up to 100 000 rows (`dropped`: more).
   */
  health: { columns: string[]; rows: number[][]; dropped?: number };
  /**
   * Streamed chat answers that completed (`openai-chat` with `stream: true`): how many, and up to
   * 10 000 of them (a uniform sample when more). A row: the send (run clock), first and last
   * content chunk (ms after the send), tokens, chunks, prompt tokens, max_tokens (0: none), the
   * median and p90 gap between chunks (ms), and the run's own streams in flight while it streamed
   * (averaged) and when it was sent. Absent: no streamed answer (and in reports of older runs).
   */
  streams?: { count: number; columns: string[]; rows: number[][] };
  /**
   * A load-balancing endpoint's requests that a worker served (`http` and `openai-chat`): how
   * many, and up to 10 000 of them (a uniform sample when more). A row: the send (run clock), the
   * time to response (ms; a stream's first content chunk), the run's requests to the endpoint in
   * flight when it was sent, its worker's row in `workers` (-1: none), and 1 for an `http`
   * request, 0 for a chat completion. Absent: a queue endpoint (and in reports of older runs).
   */
  balancer?: { count: number; columns: string[]; rows: number[][] };
}

export interface StreamStats {
  calls: number;
  /** Items received in `stream` arrays (or SSE chunks of streaming chat). */
  chunks: number;
}

export interface ArrivalStats {
  /** Arrivals the processes produced. */
  intended: number;
  /** Arrivals whose first request was sent. */
  sent: number;
  /** Sent later than `lateAfterMs` after the intended time. */
  late: number;
  /** Never sent: the in-flight cap held them longer than `maxWaitMs`. */
  dropped: number;
  /** Send lag of every request (actual − intended send). */
  sendLagMs: EncodedHistogram;
}

export interface HeadroomRow {
  operation: string;
  /**
   * Most requests sent in any interval of the limiter's window (sliding; one aligned window for a
   * fixed limiter), and the documented limit; both per 10 s (limit null: none).
   */
  peakPer10s: number;
  ratePer10s: number | null;
  /** Most requests in flight at once, and the concurrency limit. */
  peakInFlight: number;
  concurrency: number | null;
}

export interface Headroom {
  operations: HeadroomRow[];
  /** Deepest queue seen, and the depth at which queue throttling starts. */
  peakQueueDepth: number | null;
  queueThrottleAt: number;
  peakRunningWorkers: number | null;
  workersMax: number;
}

/** Column-oriented per-window series; index i covers [i × windowMs, (i + 1) × windowMs). */
export interface Timeline {
  windowMs: number;
  requests: number[];
  responses2xx: number[];
  limitedRate: number[];
  limitedConcurrency: number[];
  limitedQueue: number[];
  limitedUnknown: number[];
  clientTimeouts: number[];
  jobsCompleted: number[];
  jobsFailed: number[];
  expiriesSeen: number[];
  /** Webhook delivery attempts that reached the receiver (version 3; absent from older reports). */
  webhookAttempts?: number[];
  webhookFailures: number[];
  /** Failed attempts that were a job's last: the sender gave up (version 3, optional; absent from older reports). */
  webhookGaveUp?: number[];
  streamChunks: number[];
  late: number[];
  dropped: number[];
  /**
   * A load-balancing endpoint's requests its balancer ended, by cause (as `operations.lb.balancerFailed`,
   * per window): no-workers, timeout, dropped, worker-timeout, worker-gone. Only in runs of a
   * load-balancing endpoint (optional; absent from older reports).
   */
  balancerNoWorkers?: number[];
  balancerTimeout?: number[];
  balancerDropped?: number[];
  balancerWorkerTimeout?: number[];
  balancerWorkerGone?: number[];
  /** Maxima within the window (-1: not observed). */
  queueDepthMax: number[];
  inFlightMax: number[];
}

export interface ThresholdResult {
  expr: string;
  /** The measured value (null: no data, which fails); for an `every` threshold, the worst window's. */
  value: number | null;
  ok: boolean;
  /** An `every` threshold that failed: the first window that broke it (ms of the run). */
  window?: { fromMs: number; toMs: number; value: number };
  /** Why it failed without a value (e.g. a version-1 report has no windows). */
  reason?: string;
  /**
   * The threshold judged a second time with times from the actual send instead of the intended
   * one (`value` as above, `ok` its judgement): only on a threshold over times measured from the
   * intended send (response times, turnaround) of a run with late arrivals that recorded them
   * (over a wall clock, or with `openModel.maxInFlight`). A different `ok` means the generator's
   * lateness decided the threshold: the verdict is INVALID (verdict.ts). Optional, version 3.
   */
  fromSend?: { value: number | null; ok: boolean };
}

/**
 * Set when no answer showed the target reachable: every answer was 401, 403, 404 or a transport
 * error (src/load/record/reachability.ts). Added in version 1 (absent when the target answered).
 */
export interface Unreachable {
  /** The most frequent kind of answer: 401, 403 or 404; 0 for a transport error. */
  status: number;
  /** Such answers counted before the run ended. */
  answers: number;
  /** The run stopped after the first 20 of them (no new arrivals). */
  stoppedEarly: boolean;
  /** The first transport error's message (status 0). */
  error?: string;
}

/**
 * The runner's own reads of `GET /health` during a run against a URL (`loadlab run --target
 * --health-every`; version 3, optional, absent from in-process and lockstep runs, whose target
 * shows the endpoint itself). Not part of the scenario's traffic: not in `operations`, `flows`,
 * `arrivals` or thresholds. Its answers are `windows.endpoint` (source `sampled`) and the queue
 * and worker peaks of `headroom`.
 */
export interface HealthSampling {
  /** The sampling period in ms. */
  everyMs: number;
  /** `/health` requests sent: `answered` + `errors`, plus one when a read was still out as the run ended. */
  requests: number;
  /** Answers read as samples (status 200 with a numeric `jobs.inQueue`). */
  answered: number;
  /** Requests that gave no sample: no answer in time, a connection error, an answer other than 200, or a 200 that is not a health body. */
  errors: number;
  /**
   * `errors` by cause (the counts add up to `errors`; only the causes seen, `{}` when none): the
   * status of an answer other than 200 (`"502"`, `"429"`, `"401"`, …), `body` (a 200 without a
   * numeric `jobs.inQueue`), `timeout` (no answer in time), `reset` (the connection closed or
   * reset under the read), `refused` (connection refused) or `connection` (another transport
   * error: DNS, TLS, …). Absent from reports of versions that did not count them.
   */
  failed?: Record<string, number>;
  /** Why sampling stopped before the run ended (a 401, 403 or 404 from `/health`); absent: it went on to the end. */
  stopped?: string;
}

/**
 * The shards of one sharded run a result holds (`loadlab run --shard I/N`; version 3, optional).
 * Shard I took the arrivals k of each open flow with k mod N = I (load/arrivals/shard.ts) and the users i of each closed flow with i mod N = I.
 */
export interface ShardSection {
  /** N, the run's shard count (>= 1). */
  count: number;
  /** The shard indices held, ascending and distinct, each in [0, count): `[I]` for one shard, the union for a merged result. */
  indices: number[];
  /** Epoch ms of the wall instant that is time 0 of every shard (`--start-at`), when given. */
  startAtMs?: number;
}

export interface RunResult {
  version: RunResultVersion;
  kind: 'run' | 'blast';
  scenario: { name: string; seed: number | string; durationMs: number; endpointId: string; file?: string };
  target: { kind: 'in-process' | 'http' | 'lockstep'; url?: string; causes: 'reported' | 'inferred' };
  /** Absent: a whole, unsharded run (and no `--start-at`). `--start-at` alone gives `{count: 1, indices: [0], startAtMs}`. */
  shard?: ShardSection;
  /** Virtual (in-process) or wall (http) ms from the first arrival to the end of the drain. */
  elapsedMs: number;
  operations: Record<string, OperationStats>;
  flows: Record<string, FlowStats>;
  jobs: JobStats;
  webhooks: WebhookStats;
  streams: StreamStats;
  arrivals: ArrivalStats;
  headroom: Headroom;
  timeline: Timeline;
  thresholds: ThresholdResult[];
  /** No answer showed the target reachable (verdict INVALID, exit 1); absent otherwise. */
  unreachable?: Unreachable;
  /** Per-window histograms (version 2; absent from version 1 and blast results). */
  windows?: Windows;
  /** The runner's `/health` sampling of a run against a URL (version 3, optional). */
  healthSampling?: HealthSampling;
  /** The run was ended early by an `abortOnFail` threshold at `atMs` (run clock). */
  aborted?: { threshold: string; atMs: number };
  /** The user stopped the run (Ctrl-C) at `atMs` (run clock); its figures cover only that far (version 3). */
  interrupted?: { atMs: number };
  /** Worker-seconds by state, billed seconds and cost (version 3; in-process only). */
  workers?: WorkersSection;
  /** The batching engines over the run: an `llm.engine` endpoint seen by the simulator (version 3, optional). */
  engine?: EngineSummary;
  /** The endpoint as a run against a URL saw it, raw, for `loadlab calibrate` (version 3, optional; HTTP runs only). */
  observed?: ObservedEndpoint;
  /** Everything that depends on the machine or the wall clock. */
  wallClock?: WallClock;
}

/** The part of a result that depends on the machine or the wall clock (`RunResult.wallClock`). */
export interface WallClock {
  /** ISO-8601 instant the run started. */
  startedAt: string;
  /** Wall ms the run took. */
  wallMs: number;
  /** On a virtual clock: requests simulated per wall second. */
  simulatedRequestsPerWallSecond?: number;
  /** Epoch ms of time 0 in metrics.om (`--start-time` or its default), so `loadlab report` rebuilds the same file (version 3). */
  metricsStartMs?: number;
  /** `loadlab blast` only: autocannon's own figures. */
  autocannon?: AutocannonFigures;
}

/** What autocannon measured in a `loadlab blast` (closed model). */
export interface AutocannonFigures {
  connections: number;
  /** Mean requests per second. */
  requestsPerSec: number;
  /** Latency in ms: mean, p50, p90, p99, max. */
  latencyMs: Record<string, number>;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}
