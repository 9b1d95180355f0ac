/**
 * The reference model's job lifecycle: submit, start, the run's end (completion, planned failure,
 * execution timeout, worker crash), cancel's and removal's effect on the worker, retry, retention.
 *
 * Without an engine a run's end is decided at its start: a crash directive kills the worker halfway
 * (once per submission or retry), else the timeout, else the job's duration. The token model
 * (`llm` without engine): at each start a job draws its token count (capped by its max_tokens),
 * its time to first token and one gap per further token, each from its own stream as the core
 * does; the run lasts until its last token. Token k lands at start + ttft + the first k - 1 gaps
 * (an event set when token k - 1 landed; the last lands with completion); a run that will fail
 * lands none.
 *
 * With an engine (engine.ts) a start draws the token count alone and the job joins the worker's
 * engine (its GPU type's: llm.engine.byGpu), which tells when its run ends; a crash directive kills the worker once half its tokens
 * (at least one) are out. A run ending at the instant of the job's ttl deadline loses to the ttl.
 *
 * A worker crash sends every job it holds back to the front of the queue, the crashing one first,
 * then the others in the order they started; each counts as retried and none crashes again in
 * that submission (the core's rule: a re-queued job's crash directive does not fire again).
 */
import { promptTextOf, promptTokensOf } from './answers.js';
import { blockIdsOf } from './prefix-cache.js';
import { RefEngine, type RefEngineHost } from './engine.js';
import { DEFAULT_TTL_MS, isEnded, refBody, type RefJob, type RefStatus } from './job.js';
import { RefHolds } from './model-holds.js';
import type { Worker } from './model-state.js';
import { TokenDraws } from './token-draws.js';
import { engineOnType } from './model-hosts.js';
import type { RefChat, RefConfig, RefEngineConfig, RefJobBody } from './types.js';

type Outcome = 'complete' | 'timeout' | 'crash';

export abstract class RefLifecycle extends RefHolds {
  private readonly tokenDraws: TokenDraws;

  constructor(cfg: RefConfig) {
    super(cfg);
    this.tokenDraws = new TokenDraws(cfg);
  }

  /** Removed (ttl, retention, purge): its held requests answered 404, its worker takes the next job. */
  protected abstract remove(j: RefJob): void;

  protected submit(kind: 'run' | 'runsync' | 'openai', body: RefJobBody): RefJob {
    const j = this.newJob(kind, body);
    this.queue.push(j);
    this.changed();
    return j;
  }

  /** A job accepted now, in the jobs array (not queued yet). */
  protected newJob(kind: RefJob['kind'], body: RefJobBody): RefJob {
    const sim = (body.input.sim ?? {}) as { durationMs?: number; fail?: boolean | string; crash?: boolean };
    const ttlMs = body.policy?.ttl ?? DEFAULT_TTL_MS;
    const j: RefJob = {
      index: this.jobs.length,
      kind,
      input: body.input,
      durationMs: sim.durationMs ?? 1000,
      fail: sim.fail,
      crash: sim.crash === true,
      ttlMs,
      executionTimeoutMs: body.policy?.executionTimeout ?? this.cfg.executionTimeoutMs,
      lowPriority: body.policy?.lowPriority === true,
      submittedAtMs: this.nowMs,
      status: 'IN_QUEUE',
      gone: false,
      deadlineMs: this.nowMs + ttlMs,
      deadlineStamp: this.stamp(),
      deadlineIsTtl: true,
      retentionOverrideMs: undefined,
      enqueuedAtMs: this.nowMs,
      startedAtMs: undefined,
      executionTimeMs: undefined,
      worker: undefined,
      run: undefined,
      output: undefined,
      error: undefined,
      retries: 0,
      crashed: false,
      maxTokens: this.cfg.llm ? maxTokensOf(kind, body.input) : undefined,
      tokens: undefined,
      tokensDone: 0,
      nextToken: undefined,
      promptTokens: this.cfg.llm?.engine ? promptTokensOf(kind, body.input) : 0,
      promptText: this.cfg.llm?.engine?.prefixCaching ? promptTextOf(kind, body.input) : '',
      cachedTokens: undefined,
      engineTimes: undefined,
      refused: undefined,
    };
    this.jobs.push(j);
    return j;
  }

  protected start(w: Worker, j: RefJob): void {
    w.state = 'running';
    w.jobs.push(j);
    j.worker = w.n;
    j.status = 'IN_PROGRESS';
    j.startedAtMs = this.nowMs;
    j.tokensDone = 0;
    j.nextToken = undefined;
    if (w.engine) return this.startInEngine(w, w.engine, j);
    if (this.cfg.llm) {
      const t = this.tokenDraws.plan(j.maxTokens);
      j.durationMs = t.atMs[t.count - 1]!;
      j.tokens = failing(j) ? undefined : t;
    }
    const half = Math.floor(j.durationMs / 2);
    const run =
      j.crash && !j.crashed && half < j.executionTimeoutMs
        ? { ms: half, outcome: 'crash' as const }
        : j.durationMs > j.executionTimeoutMs
          ? { ms: j.executionTimeoutMs, outcome: 'timeout' as const }
          : { ms: j.durationMs, outcome: 'complete' as const };
    j.run = { atMs: this.nowMs + run.ms, outcome: run.outcome, stamp: this.stamp() };
    if (j.tokens && j.tokens.count > 1) j.nextToken = { atMs: this.nowMs + j.tokens.atMs[0]!, k: 1, stamp: this.stamp() };
  }

  /** A planned failure runs its tokens unseen; a stream holding the job follows its tokens. */
  private startInEngine(w: Worker, e: RefEngine, j: RefJob): void {
    const drawn = this.tokenDraws.count(j.maxTokens);
    // The model's context is the KV cache (the worker's GPU type's): a prompt that fills it fails the job, an answer past it is cut.
    const kv = this.engineOn(w.gpu)!.kvCacheTokens;
    const ctx = kv === undefined ? undefined : Math.floor(kv / 16) * 16;
    const prompt = Math.max(1, j.promptTokens);
    j.refused =
      ctx !== undefined && prompt >= ctx ? `the prompt (${prompt} tokens) leaves no room in the model's context of ${ctx} tokens (the KV cache)` : undefined;
    const cut = ctx !== undefined && j.refused === undefined && prompt + drawn.count > ctx;
    const count = j.refused !== undefined ? 1 : cut ? ctx! - prompt : drawn.count;
    const capped = j.refused === undefined && (cut || drawn.capped);
    j.tokens = failing(j) || j.refused !== undefined ? undefined : { count, capped, atMs: [] };
    const crashAfter = j.crash && !j.crashed && j.refused === undefined ? Math.max(1, Math.floor(count / 2)) : 0;
    const ids = j.refused === undefined && this.cfg.llm!.engine!.prefixCaching ? blockIdsOf(j.promptText) : [];
    e.add(j, count, j.refused !== undefined ? 1 : j.promptTokens, this.nowMs + j.executionTimeoutMs, crashAfter, ids);
    if (this.streamsOf(j).length > 0) e.watch(j);
  }

  protected newEngine(t: number): RefEngine | undefined {
    const e = this.engineOn(t);
    return e && new RefEngine(e, this.engineHost);
  }

  /** The engine on GPU type `t` (its llm.engine.byGpu entry over the engine's own keys), else undefined. */
  private engineOn(t: number): RefEngineConfig | undefined {
    const e = this.cfg.llm?.engine;
    return e && engineOnType(e, this.types[t]!.name);
  }

  /** What an engine tells the model (each call names its job). */
  private readonly engineHost: RefEngineHost = {
    now: () => this.nowMs,
    stamp: () => this.stamp(),
    runEnded: (j) => this.runEnded(j, 'complete'),
    crashed: (j) => this.runEnded(j, 'crash'),
    timedOut: (j) => this.runEnded(j, 'timeout'),
    preempted: () => this.preemptions++,
    tokensLanded: (j) => {
      if (j.tokens) j.tokensDone = j.engineTimes!.length;
      this.sendTokens(j);
      return this.streamsOf(j).length > 0;
    },
  };

  /** Token k landed: streams of the job get what they were not sent yet; the next token's event is set. */
  protected tokenLanded(j: RefJob, k: number): void {
    j.nextToken = undefined;
    j.tokensDone = k;
    this.sendTokens(j);
    if (k + 1 < j.tokens!.count) j.nextToken = { atMs: j.startedAtMs! + j.tokens!.atMs[k]!, k: k + 1, stamp: this.stamp() };
  }

  protected runEnded(j: RefJob, outcome: Outcome): void {
    if (j.deadlineMs <= this.nowMs) {
      this.remove(j);
      return this.changed();
    }
    if (outcome === 'crash') return this.crash(j);
    if (outcome === 'timeout') return this.finish(j, 'TIMED_OUT', undefined, `execution timeout of ${j.executionTimeoutMs} ms exceeded`);
    if (j.refused !== undefined) return this.finish(j, 'FAILED', undefined, j.refused);
    if (failing(j)) return this.finish(j, 'FAILED', undefined, j.fail === true ? 'simulated failure' : (j.fail as string));
    if (j.tokens) j.tokensDone = j.tokens.count;
    this.finish(j, 'COMPLETED', j.input, undefined);
  }

  /** The worker dies mid-job: every job it holds goes back to the front of the queue; the worker restarts (a cold start). */
  protected crash(j: RefJob): void {
    const w = this.workerOf(j)!;
    const others = w.jobs.filter((o) => o !== j);
    w.jobs = [];
    w.engine?.clear();
    for (const o of others.reverse()) this.requeue(o);
    this.requeue(j);
    this.boot(w);
    this.changed();
  }

  private requeue(j: RefJob): void {
    j.worker = j.startedAtMs = j.run = j.nextToken = j.engineTimes = undefined;
    j.tokensDone = 0;
    j.crashed = true;
    j.retries++;
    this.counters.retried++;
    j.status = 'IN_QUEUE';
    j.enqueuedAtMs = this.nowMs;
    this.queue.unshift(j);
  }

  protected finish(j: RefJob, status: RefStatus, output: unknown, error: string | undefined): void {
    const w = this.stopRun(j);
    j.status = status;
    if (j.startedAtMs !== undefined) j.executionTimeMs = this.nowMs - j.startedAtMs;
    j.output = output;
    j.error = error;
    if (status === 'COMPLETED') this.counters.completed++;
    if (status === 'FAILED' || status === 'TIMED_OUT') this.counters.failed++;
    // `/status?ttl` only ever shortens retention.
    const keepMs = Math.min(j.retentionOverrideMs ?? Infinity, j.kind === 'runsync' ? this.cfg.retention.runsyncMs : this.cfg.retention.runMs);
    if (this.nowMs + keepMs < j.deadlineMs) this.setDeadline(j, this.nowMs + keepMs, false);
    this.sendTokens(j);
    this.answerHolds(j, () => ({ status: 200, body: refBody(j, this.nowMs) }));
    this.reuse(w);
    this.changed();
  }

  protected retry(j: RefJob): void {
    j.tokensDone = 0;
    j.status = 'IN_QUEUE';
    j.output = j.error = j.worker = j.executionTimeMs = j.startedAtMs = undefined;
    j.crashed = false;
    j.enqueuedAtMs = this.nowMs;
    this.counters.retried++;
    // Back under its ttl, counted from submission.
    if (!j.deadlineIsTtl) this.setDeadline(j, j.submittedAtMs + j.ttlMs, true);
    this.queue.push(j);
    this.changed();
  }

  /** `/status?ttl=`: drops the result `ms` from now (ended) or from its end; never later than before. */
  protected setResultTtl(j: RefJob, ms: number): void {
    if (!isEnded(j.status)) {
      j.retentionOverrideMs = Math.min(ms, j.retentionOverrideMs ?? ms);
      return;
    }
    if (this.nowMs + ms < j.deadlineMs) this.setDeadline(j, this.nowMs + ms, false);
  }

  /** A running job leaves its worker (and its engine); the worker is returned. */
  protected stopRun(j: RefJob): Worker | undefined {
    if (j.status !== 'IN_PROGRESS') return undefined;
    const w = this.workerOf(j)!;
    w.jobs = w.jobs.filter((x) => x !== j);
    j.run = j.nextToken = undefined;
    w.engine?.remove(j);
    return w;
  }

  /** A worker a job left takes the next queued job; holding none, it goes idle. */
  protected reuse(w: Worker | undefined): void {
    if (!w) return;
    const next = this.next();
    if (next) this.start(w, next);
    else if (w.jobs.length === 0) this.makeIdle(w);
  }
}

const failing = (j: RefJob): boolean => j.fail !== undefined && j.fail !== false;

/** A job's token cap: its request's max_tokens (OpenAI), or input.max_tokens (/run, /runsync). */
function maxTokensOf(kind: RefJob['kind'], input: Record<string, unknown>): number | undefined {
  const m = kind === 'openai' ? (input.openai_input as RefChat).max_tokens : input.max_tokens;
  return typeof m === 'number' ? m : undefined;
}
