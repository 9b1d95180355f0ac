/**
 * The reference model of one worker's batching engine (`llm.engine`), plain: every iteration is
 * composed at its start and ended at its end, one by one, and each token's instant is the sum of
 * the iterations before it. No segments, no arithmetic over many iterations.
 *
 * - Iterations run back to back while the batch holds a sequence. An iteration is composed at its
 *   start: jobs ready by then join (FIFO, up to maxNumSeqs in the batch); each decoding sequence
 *   takes one token of the budget (maxNumBatchedTokens), prompts still to prefill take chunks of
 *   the rest, in batch order. It lasts decodeMs + perSequenceMs × (n − 1) + prefillMsPerToken × p
 *   (n sequences in it, p prompt tokens prefilled). At its end every decoding sequence gets a
 *   token, and a sequence whose prompt it finished gets its first one.
 * - A job is ready at its start + overheadMs; an idle engine starts an iteration at that instant
 *   (never before its last iteration ended). A prompt is at least one token. With a front end
 *   (frontEndMs), a job first waits for an API server process (the one free first; FIFO) and
 *   takes frontEndMs of it, then overheadMs.
 * - With a KV cache (kvCacheTokens, blocks of 16): a sequence holds blocks for `fill` tokens (its
 *   prompt, and after a preemption its tokens so far) from when it joins, and while decoding for
 *   fill + the tokens made since it joined. At each iteration's composition, while the batch's
 *   blocks exceed the cache, the newest sequence in it is preempted: it keeps its tokens, goes
 *   back to the front of the waiting jobs, and prefills fill = prompt + tokens so far when it
 *   joins again. A waiting job joins only while its fill's blocks are free (the first that does
 *   not fit stops the rest). Preempted sequences' tokens are told at wake-ups like the batch's.
 * - With prefix caching: a sequence holds its prompt's full blocks by name (prefix-cache.ts); a
 *   block several hold is one block of the cache. A joining sequence's leading blocks found cached
 *   (held or free; at most those before its last fill token) are not prefilled; its first join
 *   tells the job the cached tokens. A sequence leaving the batch (ended, removed, preempted) gives
 *   its blocks back as free cached blocks; the cache's blocks held and free together never exceed
 *   it: at each iteration's end (for what the iteration held) and at each composition (after
 *   preemptions, after each join) the least recently freed blocks are evicted to fit. A waiting
 *   job joins while its fill's blocks, less those of its prompt already held, fit.
 * - Whatever happens at the instant an iteration begins (a job joining, a job leaving) is part of
 *   it: the iteration is composed again. A job taken out later leaves at the iteration's end.
 * - A run ends (told to the model) at the first whole ms at or after its last token; a crash
 *   directive kills the worker once its crash point's token is out (ended runs are told first,
 *   and the tokens out by then are streamed); taken out before that is told (its ttl at that
 *   instant), it crashes nothing and the batch goes on.
 * - Streams that follow a job are told its new tokens at each wake-up; each token keeps its exact
 *   instant, whatever ms it is told in.
 *
 * Wake-ups: the engine is one event, at the first whole ms at or after the end of the next
 * iteration that changes the batch (a prefill iteration, a last token or crash point, a job
 * leaving, a waiting job that can join) or at an execution deadline; a second one (the tick) comes
 * at the ms of the next token of a watched stream, predicted as if the current iteration repeated.
 * Each is ordered by when it was planned, and planned again only when its ms changes: the core's
 * events (llm-engine.ts `arm`), stated so that events of one instant run in the same order.
 */
import { drop, newSeq, type Seq } from './engine-seq.js';
import { RefPrefixCache } from './prefix-cache.js';
import type { RefJob } from './job.js';
import type { Planned, RefEngineConfig } from './types.js';

export interface RefEngineHost {
  now(): number;
  /** The model's order counter, taken. */
  stamp(): number;
  runEnded(j: RefJob): void;
  crashed(j: RefJob): void;
  timedOut(j: RefJob): void;
  /** New tokens of `j` for its streams; false when no stream follows it any more. */
  tokensLanded(j: RefJob): boolean;
  /** A sequence was preempted. */
  preempted(): void;
}

export class RefEngine {
  private waiting: Seq[] = [];
  /** The batch, in the order its sequences joined (a removed one stays until its iteration ends). */
  private batch: Seq[] = [];
  private ended: Seq[] = [];
  private crash: Seq | undefined;
  /** The iteration under way: exact start, end and length. */
  private iter: { startMs: number; endMs: number; d: number } | undefined;
  private idleSinceMs = 0;
  /** When each API server process is free next. */
  private frontFree: number[];
  wake: Planned | undefined;
  tick: Planned | undefined;
  private readonly cache: RefPrefixCache | undefined;

  constructor(
    private readonly cfg: RefEngineConfig,
    private readonly host: RefEngineHost,
  ) {
    this.frontFree = new Array<number>(cfg.apiServerCount).fill(0);
    this.cache = cfg.prefixCaching ? new RefPrefixCache() : undefined;
  }

  add(job: RefJob, count: number, promptTokens: number, deadlineMs: number, crashAfter: number, ids: string[] = []): void {
    const now = this.host.now();
    this.catchUp(now);
    let ready = now;
    if (this.cfg.frontEndMs > 0) {
      const f = this.frontFree;
      const k = f.indexOf(Math.min(...f));
      ready = f[k] = Math.max(now, f[k]!) + this.cfg.frontEndMs;
    }
    const s = newSeq(job, ready + this.cfg.overheadMs, promptTokens, count, deadlineMs, crashAfter);
    s.ids = ids;
    job.engineTimes = s.times;
    this.waiting.push(s);
    if (this.iter?.startMs === now) this.compose(now);
    this.plan();
  }

  /** Cancelled, timed out or removed: out of the batch at the next iteration boundary (now, if one begins now). */
  remove(job: RefJob): void {
    const now = this.host.now();
    this.catchUp(now);
    if (drop(this.ended, job) || drop(this.waiting, job)) return this.plan();
    const s = this.batch.find((x) => x.job === job && !x.removed);
    if (!s) return;
    s.removed = true;
    if (!this.iter) {
      this.leave(s);
      this.batch = this.batch.filter((x) => x !== s);
    } else if (this.iter.startMs === now) this.compose(now);
    if (s === this.crash) this.resume(s, now);
    this.plan();
  }

  /**
   * The job whose crash point came was taken out before the crash was told (its ttl at that
   * instant): no crash, as a run ending at its ttl instant loses to the ttl. The batch goes on from
   * that iteration's end (another crash point reached there crashes the worker instead).
   */
  private resume(s: Seq, now: number): void {
    this.crash = this.batch.find((x) => x.crashAfter > 0 && x.times.length >= x.crashAfter);
    if (this.crash) return;
    this.compose(s.times[s.crashAfter - 1]!);
    this.catchUp(now);
  }

  /** The worker crashed: every sequence goes (the model re-queues the worker's jobs). */
  clear(): void {
    this.waiting = [];
    this.batch = [];
    this.ended = [];
    this.frontFree.fill(0);
    this.cache?.clear();
    this.crash = this.iter = this.wake = this.tick = undefined;
  }

  /** A stream follows `job` from now on. */
  watch(job: RefJob): void {
    const s = this.find(job);
    if (!s || s.watched) return;
    s.watched = true;
    s.told = s.times.length;
    this.planTick();
  }

  /** The wake-up: iterations up to now, tokens told, ended runs, a crash, then execution deadlines. */
  fire(): void {
    const now = this.host.now();
    this.wake = undefined;
    this.catchUp(now);
    this.tell();
    while (this.ended.length > 0) this.host.runEnded(this.ended.shift()!.job);
    if (this.crash) return this.host.crashed(this.crash.job);
    for (const s of [...this.batch]) if (this.due(s, now)) this.host.timedOut(s.job);
    for (const s of [...this.waiting]) if (this.due(s, now)) this.host.timedOut(s.job);
    this.plan();
  }

  /** The tick: tokens of watched streams told. */
  ticked(): void {
    this.tick = undefined;
    this.catchUp(this.host.now());
    this.tell();
    this.plan();
  }

  // ---------------------------------------------------------------- iterations

  /** Ends every iteration due by `now`, composing the next at each end (or at the first job's ready instant when idle). */
  private catchUp(now: number): void {
    while (!this.crash) {
      if (this.iter) {
        if (this.iter.endMs > now) return;
        this.endIteration(this.iter.endMs);
        continue;
      }
      const w = this.waiting[0];
      if (!w || Math.max(w.readyAtMs, this.idleSinceMs) > now) return;
      this.compose(Math.max(w.readyAtMs, this.idleSinceMs));
      if (!this.iter) return;
    }
  }

  private compose(atMs: number): void {
    const c = this.cfg;
    for (const s of this.batch) if (s.removed) this.leave(s);
    this.batch = this.batch.filter((s) => !s.removed);
    const total = this.totalBlocks();
    const usedNow = () => this.batch.reduce((a, s) => a + blocks(s), 0) - (this.cache?.shared() ?? 0);
    while (usedNow() > total) {
      const s = this.batch.pop()!;
      this.leave(s);
      s.fill = s.prompt + s.times.length;
      s.promptLeft = s.fill;
      s.pieceStart = s.times.length;
      s.chunk = 0;
      this.waiting.unshift(s);
      this.host.preempted();
    }
    this.evictFor(usedNow());
    while (
      this.waiting.length > 0 &&
      this.batch.length < c.maxNumSeqs &&
      this.waiting[0]!.readyAtMs <= atMs &&
      usedNow() + this.cost(this.waiting[0]!) <= total
    ) {
      this.join(this.waiting.shift()!);
      this.evictFor(usedNow());
    }
    if (this.batch.length === 0) {
      this.iter = undefined;
      this.idleSinceMs = atMs;
      return;
    }
    let n = this.batch.filter((s) => s.promptLeft === 0).length;
    let budget = c.maxNumBatchedTokens - n;
    let p = 0;
    for (const s of this.batch) {
      s.chunk = s.promptLeft > 0 && budget > 0 ? Math.min(s.promptLeft, budget) : 0;
      budget -= s.chunk;
      p += s.chunk;
      if (s.chunk > 0) n++;
    }
    const d = c.decodeMs + c.perSequenceMs * (n - 1) + c.prefillMsPerToken * p;
    this.iter = { startMs: atMs, endMs: atMs + d, d };
  }

  private endIteration(atMs: number): void {
    this.iter = undefined;
    // The blocks the iteration held (its sequences leaving now included) made room first.
    this.evictFor(this.batch.reduce((a, s) => a + blocks(s), 0) - (this.cache?.shared() ?? 0));
    const stay: Seq[] = [];
    for (const s of this.batch) {
      if (s.removed) {
        this.leave(s);
        continue;
      }
      if (s.chunk > 0) {
        s.promptLeft -= s.chunk;
        s.chunk = 0;
        if (s.promptLeft === 0) s.times.push(atMs);
      } else if (s.promptLeft === 0) s.times.push(atMs);
      if (s.crashAfter > 0 && s.times.length >= s.crashAfter) this.crash ??= s;
      else if (s.times.length >= s.count) {
        this.leave(s);
        this.ended.push(s);
        continue;
      }
      stay.push(s);
    }
    this.batch = stay;
    if (!this.crash) this.compose(atMs);
  }

  private totalBlocks(): number {
    return this.cfg.kvCacheTokens === undefined ? Infinity : Math.floor(this.cfg.kvCacheTokens / 16);
  }

  /** Blocks the cache holds more if `s` joins: its fill's, less its prompt's blocks already held. */
  private cost(s: Seq): number {
    return Math.ceil(s.fill / 16) - (this.cache?.heldAmong(s.ids) ?? 0);
  }

  /** `s` joins the batch: with prefix caching its leading cached blocks are not prefilled. */
  private join(s: Seq): void {
    const c = this.cache;
    if (c) {
      const hit = 16 * c.hits(s.ids, Math.min(s.ids.length, Math.floor((s.fill - 1) / 16)));
      c.acquire(s.ids);
      s.promptLeft = s.fill - hit;
      if (s.cached < 0) s.job.cachedTokens = s.cached = hit;
    }
    this.batch.push(s);
  }

  private leave(s: Seq): void {
    this.cache?.release(s.ids);
  }

  /** Evicts the least recently freed blocks until they fit beside `used` held ones. */
  private evictFor(used: number): void {
    const c = this.cache;
    if (c && this.totalBlocks() !== Infinity) c.evict(used + c.freeCount - this.totalBlocks());
  }

  private tell(): void {
    for (const s of [...this.waiting, ...this.batch]) {
      if (!s.watched || s.removed || s.times.length <= s.told) continue;
      s.told = s.times.length;
      s.watched = this.host.tokensLanded(s.job);
    }
  }

  // ---------------------------------------------------------------- wake-ups

  private plan(): void {
    const now = this.host.now();
    let at = Infinity;
    if (this.ended.length > 0 || this.crash) at = now;
    else if (this.iter) at = Math.ceil(this.nextChangeMs());
    else if (this.waiting.length > 0) at = Math.ceil(Math.max(this.waiting[0]!.readyAtMs, this.idleSinceMs));
    for (const s of [...this.batch, ...this.waiting]) if (!s.removed && s.deadlineMs < at) at = s.deadlineMs;
    if (at === Infinity) this.wake = undefined;
    else if (this.wake?.atMs !== Math.max(at, now)) this.wake = { atMs: Math.max(at, now), stamp: this.host.stamp() };
    this.planTick();
  }

  /** End of the first iteration from the one under way after which the batch changes (see the header). */
  private nextChangeMs(): number {
    const it = this.iter!;
    const live = this.batch.filter((s) => !s.removed);
    if (live.length < this.batch.length || live.some((s) => s.chunk > 0)) return it.endMs;
    // Decoding alone: the same iteration repeats until a run's last token, a crash point, a join
    // (the first waiting job, ready and its blocks free) or the KV cache outgrown.
    const w = this.waiting[0];
    const total = this.totalBlocks();
    const shared = this.cache?.shared() ?? 0;
    // Blocks of the batch in the iteration composed after k more iterations.
    const blocksAfter = (k: number): number =>
      live.reduce((a, s) => a + Math.ceil((s.promptLeft > 0 ? s.fill : s.fill + s.times.length + k - s.pieceStart) / 16), 0);
    for (let k = 1, end = it.endMs; ; k++, end += it.d) {
      for (const s of live) if (s.promptLeft === 0 && (s.times.length + k >= s.count || (s.crashAfter > 0 && s.times.length + k >= s.crashAfter))) return end;
      if (total !== Infinity && blocksAfter(k) - shared > total) return end;
      if (w && live.length < this.cfg.maxNumSeqs && w.readyAtMs <= end && blocksAfter(k) - shared + this.cost(w) <= total) return end;
    }
  }

  private planTick(): void {
    const it = this.iter;
    let at = Infinity;
    for (const s of this.batch) {
      if (!it || !s.watched || s.removed || s.promptLeft > 0 || s.told >= s.count) continue;
      const k = s.told;
      at = Math.min(at, Math.max(this.host.now(), Math.ceil(k < s.times.length ? s.times[k]! : it.endMs + (k - s.times.length) * it.d)));
    }
    if (at === Infinity) this.tick = undefined;
    else if (this.tick?.atMs !== at) this.tick = { atMs: at, stamp: this.host.stamp() };
  }

  private find(job: RefJob): Seq | undefined {
    return this.batch.find((s) => s.job === job && !s.removed) ?? this.ended.find((s) => s.job === job) ?? this.waiting.find((s) => s.job === job);
  }

  /** Its execution deadline came while the engine still holds it. */
  private due(s: Seq, now: number): boolean {
    return !s.removed && s.deadlineMs <= now && this.find(s.job) === s;
  }
}

/** Blocks `s` holds in the iteration being composed: its fill, and while decoding the tokens made since it joined. */
function blocks(s: Seq): number {
  return Math.ceil((s.promptLeft > 0 ? s.fill : s.fill + s.times.length - s.pieceStart) / 16);
}
