/**
 * `loadlab blast`: the raw throughput of one operation under autocannon (a closed model: each
 * connection sends its next request as soon as the previous one is answered). Every answer is
 * recorded into the same Recorder a scenario run uses, so the result is an ordinary RunResult
 * (`kind: "blast"`, timeline in 1 s windows of wall time) that every renderer reads. A 429's
 * cause is read from its body when the target says it (a loopback `loadlab serve`), else
 * inferred from what blast sent (cause-inference.ts); only 429 bodies are parsed. When the first
 * 20 answers are all 401, 403, 404 or transport errors, blast stops there (reachability.ts).
 */
import autocannon, { type AutocannonResult } from 'autocannon';
import { request } from 'undici';
import { RUN_RESULT_VERSION, type LimitCauseName, type RunResult } from '../../report/run-result.js';
import { DEFAULT_LIMITS, OPERATIONS, type Operation } from '../../contract/operations.js';
import { causeInBody, inferCause } from '../record/cause-inference.js';
import { splitBase } from '../targets/http/http-target.js';
import { displayUrl } from '../targets/target-url.js';
import { Recorder } from '../record/recorder.js';
import { SendRate } from '../record/send-rate.js';
import { Reachability } from '../record/reachability.js';
import { unreachableCause } from '../../report/verdict.js';
import { LoadlabError } from '../../contract/loadlab-error.js';

/** Operations blast can aim at, with how each request looks. `{id}`: a job submitted first. */
export const BLAST_OPS = {
  run: { method: 'POST', path: '/run', body: true },
  runsync: { method: 'POST', path: '/runsync', body: true },
  status: { method: 'GET', path: '/status/{id}', body: false },
  'status-sync': { method: 'GET', path: '/status-sync/{id}', body: false },
  stream: { method: 'GET', path: '/stream/{id}', body: false },
  cancel: { method: 'POST', path: '/cancel/{id}', body: false },
  retry: { method: 'POST', path: '/retry/{id}', body: false },
  health: { method: 'GET', path: '/health', body: false },
  'purge-queue': { method: 'POST', path: '/purge-queue', body: false },
} as const satisfies Partial<Record<Operation, { method: string; path: string; body: boolean }>>;
export type BlastOp = keyof typeof BLAST_OPS;

export interface BlastOptions {
  /** Base URL up to `/v2`. */
  url: string;
  apiKey: string;
  endpointId: string;
  op: BlastOp;
  /** Open sockets (each one request at a time). */
  connections: number;
  /** Seconds of load. */
  durationSec: number;
  /** Job `input` for run/runsync; `padBytes` adds `input.pad` of that many bytes. */
  input?: Record<string, unknown>;
  padBytes?: number;
  /** Per-request timeout in seconds (autocannon's). */
  timeoutSec?: number;
  /** The target names the limit in 429 bodies (a `loadlab serve`); else causes are inferred. */
  causesReported: boolean;
}

/** Timeline windows of a blast (wall ms). */
const BLAST_WINDOW_MS = 1000;
/** The window of the documented rate limits (ms). */
const LIMIT_WINDOW_MS = 10_000;
const JOB_CREATING = new Set<BlastOp>(['run', 'runsync']);

function bodyOf(o: BlastOptions): string {
  const input: Record<string, unknown> = { ...(o.input ?? { prompt: 'hello' }) };
  if (o.padBytes) input.pad = 'x'.repeat(o.padBytes);
  return JSON.stringify({ input });
}

/** Submits one job for the operations that need an id (status, stream, cancel, …). */
async function seedJob(origin: string, prefix: string, headers: Record<string, string>, body: string): Promise<string> {
  const r = await request(`${origin}${prefix}/run`, { method: 'POST', headers, body });
  const j = (await r.body.json()) as { id?: string };
  if (r.statusCode === 401 || r.statusCode === 403 || r.statusCode === 404)
    throw new LoadlabError('LOADLAB_ERR_RUNTIME', unreachableCause({ status: r.statusCode, answers: 1, stoppedEarly: true }));
  if (r.statusCode !== 200 || typeof j.id !== 'string')
    throw new LoadlabError('LOADLAB_ERR_RUNTIME', `blast: could not submit the job to aim at (HTTP ${r.statusCode})`);
  return j.id;
}

export async function blast(o: BlastOptions): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const { origin, prefix: v2 } = splitBase(o.url);
  const prefix = `${v2}/${o.endpointId}`;
  const spec = BLAST_OPS[o.op];
  const headers = { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' };
  const body = bodyOf(o);
  const path = spec.path.includes('{id}') ? spec.path.replace('{id}', await seedJob(origin, prefix, headers, body)) : spec.path;

  const rec = new Recorder(BLAST_WINDOW_MS, 10);
  rec.flow('blast', { operation: o.op, behaviour: 'blast', arrival: 'closed-model' });
  const sentRate = new SendRate(LIMIT_WINDOW_MS);
  const lim = DEFAULT_LIMITS[o.op];
  // The body of the latest 429 (its `onResponse` runs right before the `response` event).
  let body429 = '';
  const t0 = performance.now();
  const inst = autocannon({
    url: origin + prefix + path,
    method: spec.method,
    headers,
    connections: o.connections,
    duration: o.durationSec,
    timeout: o.timeoutSec ?? 10,
    ...(spec.body ? { body } : {}),
    requests: [{ onResponse: (status, text) => void (status === 429 && (body429 = text)) }],
  });
  const cause = (endMs: number): LimitCauseName => {
    if (o.causesReported) return causeInBody(body429) ?? 'unknown';
    // Closed model: every connection has a request out.
    return inferCause(lim, {
      inFlightAtSend: o.connections,
      recentSent: sentRate.inWindow(endMs),
      lastQueueDepth: undefined,
      queueThrottleAt: Infinity,
      jobCreating: JOB_CREATING.has(o.op),
    });
  };
  // The first 20 answers all 401/403/404 or transport errors: stop, the target is not there.
  const reach = new Reachability();
  reach.onTrip = () => inst.stop();
  inst.on('reqError', (e: Error) => reach.see(0, e.message, e.message === 'request timed out'));
  // A closed model has no intended send time: each answer is recorded as sent `responseTime` ago.
  inst.on('response', (client: { destroy(): void }, status: number, _bytes: number, responseTimeMs: number) => {
    const end = performance.now() - t0;
    const sent = Math.max(0, end - responseTimeMs);
    rec.sent(o.op, sent, sent);
    sentRate.add(sent);
    rec.answered(o.op, sent, sent, end, { status }, status === 429 ? cause(end) : undefined);
    reach.see(status);
    // autocannon's stop() takes effect at its next 1 s tick; a closed connection sends no more now.
    if (reach.tripped) client.destroy();
  });
  const ac: AutocannonResult = await inst;
  const elapsedMs = Math.round(performance.now() - t0);
  const sec = rec.sections();
  const transport = ac.errors - ac.timeouts;
  const opStats = sec.operations[o.op];
  if (opStats) Object.assign(opStats, { clientTimeouts: ac.timeouts, transportErrors: transport });
  const result: RunResult = {
    version: RUN_RESULT_VERSION,
    kind: 'blast',
    scenario: { name: `blast-${o.op}`, seed: 0, durationMs: o.durationSec * 1000, endpointId: o.endpointId },
    target: { kind: 'http', url: displayUrl(o.url), causes: o.causesReported ? 'reported' : 'inferred' },
    elapsedMs,
    ...sec,
    flows: { blast: { ...sec.flows.blast!, sessions: o.connections, outcomes: {} } },
    headroom: {
      operations: [
        {
          // Sliding: the most sent in any 10 s (a real deployment's limiter window type is not known).
          operation: o.op,
          peakPer10s: sentRate.slidingPeak,
          ratePer10s: lim.rate,
          peakInFlight: rec.ops.get(o.op)?.peakInFlight ?? 0,
          concurrency: lim.concurrency,
        },
      ],
      peakQueueDepth: null,
      queueThrottleAt: 0,
      peakRunningWorkers: null,
      workersMax: 0,
    },
    timeline: rec.tl.result(elapsedMs),
    thresholds: [],
    ...(reach.result() ? { unreachable: reach.result()! } : {}),
    wallClock: {
      startedAt,
      wallMs: elapsedMs,
      autocannon: {
        connections: o.connections,
        requestsPerSec: ac.requests.average,
        latencyMs: pick(ac.latency),
        total: ac.requests.total,
        errors: ac.errors,
        timeouts: ac.timeouts,
        non2xx: ac.non2xx,
      },
    },
  };
  return result;
}

function pick(h: AutocannonResult['latency']): Record<string, number> {
  return { mean: h.mean, p50: h.p50, p90: h.p90, p99: h.p99, max: h.max };
}

export const isBlastOp = (s: string): s is BlastOp => s in BLAST_OPS && (OPERATIONS as readonly string[]).includes(s);
