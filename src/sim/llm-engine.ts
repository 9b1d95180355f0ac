/**
 * The batching engine of one LLM worker (`llm.engine`: vLLM's continuous batching). Iterations
 * run back to back while the worker holds a sequence; each gives every decoding sequence one token.
 * A job joins at the first iteration boundary at or after its start + overheadMs (FIFO, at most
 * maxNumSeqs in the batch; the rest wait inside the worker), its prompt is prefilled within the
 * iteration token budget (maxNumBatchedTokens, one token per decoding sequence taken first), and its
 * first token comes at the end of the iteration that finished its prefill. An iteration lasts
 * `decodeMs + perSequenceMs × (n − 1) + prefillMsPerToken × p` (n sequences in it, p prompt tokens).
 *
 * Cost: events per change of the batch, not per token. Between two changes the iteration time is
 * constant (a segment), so token k of a sequence is the end of global iteration `firstIter + k`,
 * found arithmetically from the segments. Times are exact (fractional ms); the scheduler's events
 * (a change applied, a run ended: at the first whole ms at or after it) stay on the integer clock.
 * Between events the state is brought up to date lazily (`advance`) whenever something asks.
 *
 * In front of the batch: the API server (`frontEndMs` of CPU per request, one request at a time
 * per process, `apiServerCount` processes), then `overheadMs` (a delay, no queue). With
 * `kvCacheTokens` the batch is also bounded by the KV cache (kv-cache.ts): a waiting job joins
 * only while blocks for its prompt are free (FIFO: the first that does not fit stops the rest);
 * when the decoding sequences outgrow the cache, the newest running ones are preempted at that
 * iteration's start (vLLM V1's recompute preemption): their blocks are freed, they go back to the
 * front of the waiting jobs (oldest first) and when they join again they prefill their prompt and
 * every token made so far, then go on from the next token.
 *
 * With `prefixCaching` (prefix-cache.ts) a joining sequence's leading prompt blocks that the
 * worker's cache holds are not prefilled (at least its last prompt token is), and blocks shared
 * by running sequences count once against the cache; a sequence's blocks stay cached once it
 * leaves, and the least recently used of those free blocks are evicted when a join or a growing
 * sequence needs room. A prompt's blocks count as cached from the iteration it joins in (this model
 * allocates a prompt's blocks when it joins; vLLM registers them chunk by chunk as they are
 * scheduled: the two differ only for a prompt prefilled over several iterations).
 */
import type { EngineConfig } from '../contract/llm-config.js';
import type { Scheduler, Timer } from '../lib/scheduler.js';
import { KV_BLOCK_TOKENS } from '../contract/llm-config.js';
import { extras, type Job } from './job.js';
import { EngineSegments } from './engine-segments.js';
import { EngineSeq } from './engine-seq.js';
import type { EngineStats } from './engine-stats.js';
import { blocksAt, blocksOf, overflowAfter } from './kv-cache.js';
import { PrefixCache } from './prefix-cache.js';

export interface EngineHost {
  /**
   * `j`'s run is over: 'complete', its last token is out (a planned failure ends now too);
   * 'crash', its crash point came (the worker dies); 'timeout', it reached its execution timeout.
   */
  runEnded(j: Job, how: 'complete' | 'crash' | 'timeout'): void;
  /** `j` produced tokens since the last call and someone watches it (`watch`); false: nobody does any more. */
  tokensLanded(j: Job): boolean;
}

export class LlmEngine implements Timer {
  // Timer fields (scheduler.ts): the engine's next change, ended run or deadline.
  atMs = 0;
  seq = 0;
  idx = -1;
  wheel = false;
  prev: Timer | undefined = undefined;
  next: Timer | undefined = undefined;
  readonly arg: LlmEngine = this;
  readonly fn = fire;

  /** Held, not yet in the batch (FIFO). */
  private readonly waiting: EngineSeq[] = [];
  /** In the batch: prefilling or decoding (removed ones stay until the next boundary). */
  private readonly running: EngineSeq[] = [];
  /** Runs that ended (last token out), not yet told to the host. */
  private readonly ended: EngineSeq[] = [];
  private crash: EngineSeq | undefined = undefined;
  /** The boundary (global iteration, exact ms) at which `crash` reached its crash point. */
  private crashIter = 0;
  private crashAtMs = 0;
  private readonly segs = new EngineSegments();
  /** A segment is running (iterations back to back). */
  private busy = false;
  /** Last iteration of the current segment: after its end the batch changes. */
  private lastIter = 0;
  /** Global index of the next segment's first iteration when idle; when the engine last went idle. */
  private nextIter = 0;
  private idleSince = 0;
  /** `earliestDeadline`'s answer; -1: to be looked for again (a job left). */
  private deadline = -1;
  /** Jobs taken so far (their arrival order). */
  private arrivals = 0;
  /** The tick timer of watched sequences (`watch`): set while one is. */
  private tick: Timer | undefined = undefined;
  /** KV cache blocks (Infinity: no cache modelled), and those held in the current iteration. */
  private readonly totalBlocks: number;
  private usedBlocks = 0;
  /** With `prefixCaching`: the worker's cached blocks by content. */
  private readonly cache: PrefixCache | undefined;
  /** Preempted sequences among the waiting (their tokens so far are told from there). */
  private preemptedWaiting = 0;
  /** When each API server process is free next (exact ms). */
  private readonly frontFree: number[];
  /** What `stats` was last told of this engine (`publish`). */
  private toldRunning = 0;
  private toldWaiting = 0;
  private toldBlocks = 0;

  constructor(
    private readonly cfg: EngineConfig,
    private readonly sched: Scheduler,
    private readonly host: EngineHost,
    private readonly stats: EngineStats,
  ) {
    this.totalBlocks = cfg.kvCacheTokens === undefined ? Infinity : Math.floor(cfg.kvCacheTokens / 16);
    this.frontFree = new Array<number>(cfg.apiServerCount).fill(0);
    this.cache = cfg.prefixCaching ? new PrefixCache() : undefined;
  }

  /** Tokens its KV cache holds (undefined: unlimited): a job's prompt and answer are capped at it. */
  get kvCacheTokens(): number | undefined {
    return this.cfg.kvCacheTokens;
  }

  /**
   * Takes job `j`, started now: `tokens` to produce, `promptTokens` to prefill, its execution
   * deadline (whole ms), the token after which the worker crashes (0: none); with prefix caching
   * the prompt's block ids (contract/prompt-blocks.ts; none: nothing to share).
   */
  add(j: Job, tokens: number, promptTokens: number, deadlineMs: number, crashAfter: number, blockIds?: readonly number[]): void {
    const now = this.sched.nowMs;
    this.advanceTo(now);
    const s = new EngineSeq(j, this.arrivals++, this.frontEnd(now) + this.cfg.overheadMs, Math.max(1, promptTokens), tokens, deadlineMs, crashAfter);
    if (this.cache !== undefined) s.ids = blockIds ?? [];
    this.waiting.push(s);
    if (this.deadline >= 0 && deadlineMs < this.deadline) this.deadline = deadlineMs;
    if (this.busy && this.running.length < this.cfg.maxNumSeqs) {
      const seg = this.segs;
      const join = seg.iter0 - 1 + Math.ceil((s.readyAtMs - seg.t0) / seg.d);
      // Ready at the instant the current segment began (nothing of it has run): it joins it.
      if (join < seg.iter0) this.recompose();
      else if (join < this.lastIter && this.mayJoin(s, join + 1)) this.lastIter = join;
    }
    this.arm();
  }

  /**
   * When a job taken now is through the API server: FIFO on the process free first. A job taken
   * out later (cancelled) keeps the time it took.
   */
  private frontEnd(now: number): number {
    const ms = this.cfg.frontEndMs;
    if (ms === 0) return now;
    const free = this.frontFree;
    let k = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[k]!) k = i;
    return (free[k] = Math.max(now, free[k]!) + ms);
  }

  /**
   * Can `s`, just taken, join the batch under way at iteration `iter`? With a KV cache, not when
   * others wait before it (they join first, or block it) nor when its blocks are not free then.
   */
  private mayJoin(s: EngineSeq, iter: number): boolean {
    return this.totalBlocks === Infinity || (this.waiting.length === 1 && this.fitsAt(s, iter));
  }

  /** With a KV cache: are blocks for `s`'s fill free in iteration `iter` of the batch as it is? */
  private fitsAt(s: EngineSeq, iter: number): boolean {
    if (this.totalBlocks === Infinity) return true;
    let used = this.joinCost(s) - this.sharedBlocks();
    for (const r of this.running) used += blocksAt(r, iter);
    return used <= this.totalBlocks;
  }

  /** Blocks the cache holds more once `s` joins: its fill's, less those of its prompt already held by running sequences. */
  private joinCost(s: EngineSeq): number {
    const c = this.cache;
    return c === undefined ? blocksOf(s.fill) : blocksOf(s.fill) - c.heldAmong(s.ids!);
  }

  /** Blocks the running sequences' own counts (blocksAt) count more than once (shared prompt blocks). */
  private sharedBlocks(): number {
    return this.cache === undefined ? 0 : this.cache.shared;
  }

  /** A sequence leaves the batch (ended, removed, preempted): its prompt blocks stay cached, free once nobody holds them. */
  private leave(s: EngineSeq): void {
    if (this.cache !== undefined) this.cache.release(s.ids!);
  }

  /**
   * With a prefix cache of bounded size: evicts the least recently used free cached blocks until
   * they fit beside the `used` blocks held. Room never cached (a sequence's partial and generated
   * blocks, freed) is taken first; vLLM keeps those in the same least-recently-used queue as the
   * cached ones, so it may evict a cached block a little sooner.
   */
  private evictOver(used: number): void {
    const c = this.cache;
    if (c === undefined) return;
    const over = used + c.freeCount - this.totalBlocks;
    if (over > 0) c.evict(over);
  }

  /**
   * `s` joins the batch. With prefix caching, the leading blocks of its prompt the cache holds are
   * not prefilled (never its last token: vLLM computes at least one), its blocks are taken, and
   * its first join counts its prompt tokens and those hits (vLLM's prefix cache queries and hits).
   */
  private admit(s: EngineSeq): void {
    if (s.done > 0) this.preemptedWaiting--;
    const c = this.cache;
    if (c !== undefined) {
      const ids = s.ids!;
      const hit = c.hits(ids, Math.min(ids.length, Math.floor((s.fill - 1) / KV_BLOCK_TOKENS))) * KV_BLOCK_TOKENS;
      c.acquire(ids);
      s.promptLeft = s.fill - hit;
      if (s.cachedTokens < 0) {
        s.cachedTokens = hit;
        this.stats.prefixQueries += s.prompt;
        this.stats.prefixHits += hit;
        extras(s.job).cachedTokens = hit;
      }
    }
    this.running.push(s);
  }

  /** Takes `j` out (cancelled, timed out, removed, or its ended run told): its place is free from the next boundary. */
  remove(j: Job): void {
    const now = this.sched.nowMs;
    this.advanceTo(now);
    this.deadline = -1;
    if (drop(this.ended, j)) return this.arm();
    const wi = this.waiting.findIndex((x) => x.job === j);
    if (wi >= 0) {
      if (this.waiting.splice(wi, 1)[0]!.done > 0) this.preemptedWaiting--;
      return this.arm();
    }
    const s = this.running.find((r) => r.job === j && !r.removed);
    if (s === undefined) return;
    s.removed = true;
    const seg = this.segs;
    if (!this.busy) {
      this.leave(s);
      drop(this.running, j);
    } else if (seg.t0 === now) this.recompose();
    else this.lastIter = Math.min(this.lastIter, seg.iter0 + seg.doneBy(now));
    if (s === this.crash) this.resume(now);
    this.arm();
  }

  /**
   * The job whose crash point came is taken out before the crash was told (its ttl came at that
   * instant, and a run's end loses to its ttl): there is no crash, and the batch goes on from that
   * boundary (another crash point reached there crashes the worker instead). Left crashed, the
   * engine would never run again.
   */
  private resume(nowMs: number): void {
    this.crash = undefined;
    this.boundary(this.crashIter, this.crashAtMs);
    this.advance(nowMs);
  }

  /** Every job it holds (the crashing one excepted), in the order they came; the engine is empty after. */
  takeAll(except: Job | undefined): Job[] {
    const out: Job[] = [];
    const all = [...this.ended, ...this.running.filter((s) => !s.removed), ...this.waiting].sort((a, b) => a.order - b.order);
    for (const s of all) if (s.job !== except) out.push(s.job);
    this.clear();
    return out;
  }

  /**
   * Forgets everything, even an iteration under way whose jobs left (a cancelled job's): its
   * worker stopped and the object now serves a new worker (worker.ts `renew`), whose first job
   * must not wait for the end of the old worker's iteration.
   */
  reset(): void {
    this.clear();
    this.idleSince = this.nextIter = 0;
  }

  /** Holds nothing from now on, its timers cancelled (its API server too: the worker went). */
  private clear(): void {
    this.ended.length = this.running.length = this.waiting.length = 0;
    this.crash = undefined;
    this.busy = false;
    this.deadline = -1;
    this.usedBlocks = this.preemptedWaiting = 0;
    this.cache?.clear();
    this.frontFree.fill(0);
    this.segs.clear();
    this.sched.cancel(this);
    this.sched.cancel(this.tick);
    this.publish();
  }

  /** Tells `stats` what changed in this engine since it last did. */
  private publish(): void {
    const st = this.stats;
    const r = this.running.length;
    const w = this.waiting.length;
    const b = this.usedBlocks;
    st.running += r - this.toldRunning;
    st.waiting += w - this.toldWaiting;
    if (b !== Infinity) st.usedBlocks += b - this.toldBlocks;
    this.toldRunning = r;
    this.toldWaiting = w;
    this.toldBlocks = b;
  }

  /** Tokens `j` has produced by now. */
  produced(j: Job): number {
    this.advance(this.sched.nowMs);
    const s = this.find(j);
    return s === undefined ? 0 : this.producedBy(s, this.sched.nowMs);
  }

  /** The exact virtual ms (fractional) at which token `k` (0-based) of `j` was produced; undefined if unknown. */
  tokenAtMs(j: Job, k: number): number | undefined {
    const s = this.find(j);
    if (s === undefined) return undefined;
    if (k < s.done) return s.doneAtMs![k];
    if (s.firstIter < 0) return undefined;
    return this.segs.endOf(s.firstIter + k - s.done);
  }

  /** From now on tells the host of `j`'s new tokens as they come (a live stream or a /stream poll waits on it). */
  watch(j: Job): void {
    const s = this.find(j);
    if (s === undefined || s.watched) return;
    s.watched = true;
    s.told = this.producedBy(s, this.sched.nowMs);
    this.armTick();
  }

  // ---------------------------------------------------------------- internals

  private find(j: Job): EngineSeq | undefined {
    for (const s of this.running) if (s.job === j && !s.removed) return s;
    for (const s of this.ended) if (s.job === j) return s;
    for (const s of this.waiting) if (s.job === j) return s;
    return undefined;
  }

  /** Tokens of `s` out by `nowMs` (the state brought up to it). */
  private producedBy(s: EngineSeq, nowMs: number): number {
    if (s.firstIter < 0) return s.done;
    if (s.endedRun) return s.tokens;
    const seg = this.segs;
    const last = this.busy ? Math.min(this.lastIter, seg.iter0 - 1 + seg.doneBy(nowMs)) : this.nextIter - 1;
    return s.done + Math.max(0, Math.min(s.tokens - s.done, last - s.firstIter + 1));
  }

  /**
   * `advance`, and when an iteration of the current segment begins exactly at `nowMs`, the segment
   * ends there (the same iterations go on as a new segment): a job joining or leaving now is then
   * part of the iteration beginning now, as at the first instant of a segment (`recompose`), not
   * one iteration later because nothing else changed at that boundary.
   */
  private advanceTo(nowMs: number): void {
    this.advance(nowMs);
    if (!this.busy || this.crash !== undefined) return;
    const seg = this.segs;
    const m = seg.doneBy(nowMs);
    if (m === 0 || seg.iter0 + m - 1 >= this.lastIter || seg.t0 + m * seg.d !== nowMs) return;
    this.lastIter = seg.iter0 + m - 1;
    this.advance(nowMs);
  }

  /** Applies every change of the batch due at or before `nowMs`. */
  private advance(nowMs: number): void {
    while (this.crash === undefined) {
      if (!this.busy) {
        const w = this.waiting[0];
        if (w === undefined) return;
        const t = Math.max(w.readyAtMs, this.idleSince);
        if (t > nowMs) return;
        this.compose(t, this.nextIter);
        // Still idle: nothing fits (the context cap makes a job alone always fit: context-fit.ts).
        if (!this.busy) return;
        continue;
      }
      const endT = this.segs.currentEnd(this.lastIter);
      if (endT > nowMs) return;
      this.boundary(this.lastIter, endT);
    }
  }

  /** The end of iteration `it` at `atMs`, the last of its segment: prefills, ended runs, crash, removals; then the next segment. */
  private boundary(it: number, atMs: number): void {
    const run = this.running;
    // The segment's decoding took blocks up to its last iteration, evicting free cached ones for
    // room then, before the sequences leaving now free theirs.
    if (this.cache !== undefined && this.cache.freeCount > 0 && this.totalBlocks !== Infinity) {
      let used = -this.cache.shared;
      for (const s of run) used += blocksAt(s, it);
      this.evictOver(used);
    }
    let keep = 0;
    for (let i = 0; i < run.length; i++) {
      const s = run[i]!;
      if (s.removed) {
        this.leave(s);
        continue;
      }
      if (s.chunk > 0) {
        s.promptLeft -= s.chunk;
        s.chunk = 0;
        if (s.promptLeft === 0) s.firstIter = it;
      }
      if (s.firstIter >= 0 && s.crashAfter > s.done && s.firstIter + s.crashAfter - s.done - 1 <= it) this.crash ??= s;
      else if (s.firstIter >= 0 && s.firstIter + s.tokens - s.done - 1 <= it) {
        s.endedRun = true;
        this.leave(s);
        this.deadline = -1;
        this.timesOf(s);
        this.ended.push(s);
        continue;
      }
      run[keep++] = s;
    }
    run.length = keep;
    if (this.crash !== undefined) {
      this.busy = false;
      this.crashIter = it;
      this.crashAtMs = atMs;
      // Not busy, `producedBy` counts up to `nextIter`: the tokens out by the crash are produced, and
      // told before the crash is (`fire`).
      this.nextIter = it + 1;
      return;
    }
    this.compose(atMs, it + 1);
  }

  /**
   * Starts a segment at `atMs` (exact) with global iteration `iter`: preempts what the cache cannot
   * hold, admits, gives prompt chunks, times the iteration.
   */
  private compose(atMs: number, iter: number): void {
    const { cfg, running, waiting } = this;
    const total = this.totalBlocks;
    if (total === Infinity) {
      if (this.cache === undefined)
        while (waiting.length > 0 && running.length < cfg.maxNumSeqs && waiting[0]!.readyAtMs <= atMs) running.push(waiting.shift()!);
      else while (waiting.length > 0 && running.length < cfg.maxNumSeqs && waiting[0]!.readyAtMs <= atMs) this.admit(waiting.shift()!);
    } else {
      // Blocks held: each sequence's, less those counted more than once (shared prompt blocks).
      let used = -this.sharedBlocks();
      for (const s of running) used += blocksAt(s, iter);
      while (used > total) {
        const s = running.pop()!;
        used -= blocksAt(s, iter) - this.sharedBlocks();
        this.preempt(s, iter);
        used -= this.sharedBlocks();
      }
      this.evictOver(used);
      while (waiting.length > 0 && running.length < cfg.maxNumSeqs && waiting[0]!.readyAtMs <= atMs) {
        const cost = this.joinCost(waiting[0]!);
        if (used + cost > total) break;
        used += cost;
        this.admit(waiting.shift()!);
        this.evictOver(used);
      }
      this.usedBlocks = used;
    }
    if (running.length === 0) {
      this.busy = false;
      this.idleSince = atMs;
      this.nextIter = iter;
      this.segs.clear();
      return;
    }
    let decoding = 0;
    let oldest = iter;
    for (const s of running) {
      if (s.firstIter < 0) continue;
      decoding++;
      if (s.firstIter < oldest) oldest = s.firstIter;
    }
    let budget = cfg.maxNumBatchedTokens - decoding;
    let n = decoding;
    let p = 0;
    for (const s of running) {
      s.chunk = 0;
      if (s.firstIter >= 0 || budget <= 0) continue;
      s.chunk = Math.min(s.promptLeft, budget);
      budget -= s.chunk;
      p += s.chunk;
      n++;
    }
    const d = cfg.decodeMs + cfg.perSequenceMs * (Math.max(1, n) - 1) + cfg.prefillMsPerToken * p;
    this.segs.trimBefore(oldest);
    this.segs.begin(iter, atMs, d);
    this.busy = true;
    this.lastIter = p > 0 ? iter : Math.min(this.nextChange(iter, atMs, d), overflowAfter(running, iter, total - this.usedBlocks) - 1);
  }

  /**
   * `s`, in the batch, is preempted at the start of iteration `iter`: its tokens so far keep their
   * times, its blocks are freed, and it waits at the front to prefill its prompt and them again.
   */
  private preempt(s: EngineSeq, iter: number): void {
    this.leave(s);
    if (s.firstIter >= 0) {
      const made = iter - s.firstIter;
      if (made > 0) this.segs.pushEnds((s.doneAtMs ??= []), s.firstIter, made, 0);
      s.done += made;
    }
    s.fill = s.prompt + s.done;
    s.promptLeft = s.fill;
    s.firstIter = -1;
    s.chunk = 0;
    this.waiting.unshift(s);
    this.preemptedWaiting++;
    this.stats.preemptions++;
  }

  /** Writes an ended run's token times (exact ms after its start) into its token run, while the segments still hold them. */
  private timesOf(s: EngineSeq): void {
    const t = s.job.x?.tokens;
    if (t === undefined) return;
    const at = t.atMs as number[];
    at.length = 0;
    const start = s.job.startedAtMs!;
    if (s.done > 0) for (const ms of s.doneAtMs!) at.push(ms - start);
    this.segs.pushEnds(at, s.firstIter, s.tokens - s.done, start);
  }

  /** The same segment composed again: something joined or left at the instant it began. */
  private recompose(): void {
    const seg = this.segs;
    const t0 = seg.t0;
    const iter0 = seg.iter0;
    seg.dropLast();
    const run = this.running;
    let keep = 0;
    for (const s of run) {
      if (!s.removed) run[keep++] = s;
      else this.leave(s);
    }
    run.length = keep;
    this.compose(t0, iter0);
  }

  /** The last iteration of a decoding segment: before a run ends, a crash point, or a join. */
  private nextChange(iter: number, atMs: number, d: number): number {
    let last = Infinity;
    for (const s of this.running) {
      if (s.firstIter < 0) continue;
      last = Math.min(last, s.firstIter + s.tokens - s.done - 1);
      if (s.crashAfter > s.done) last = Math.min(last, s.firstIter + s.crashAfter - s.done - 1);
    }
    const w = this.waiting[0];
    if (w !== undefined && this.running.length < this.cfg.maxNumSeqs) {
      const join = iter - 1 + Math.max(1, Math.ceil((w.readyAtMs - atMs) / d));
      // With a KV cache, a job whose blocks are not free when it is ready waits for a run to end.
      if (join < last && this.fitsAt(w, join + 1)) last = join;
    }
    return last;
  }

  /** Arms the timer at the next thing to happen: an ended run to tell, a change, a deadline. */
  private arm(): void {
    const now = this.sched.nowMs;
    let at = Infinity;
    if (this.ended.length > 0 || this.crash !== undefined) at = now;
    else if (this.busy) at = Math.ceil(this.segs.currentEnd(this.lastIter));
    else if (this.waiting.length > 0) at = Math.ceil(Math.max(this.waiting[0]!.readyAtMs, this.idleSince));
    at = Math.min(at, this.earliestDeadline());
    if (at === Infinity) this.sched.cancel(this);
    else if (this.idx === -1 || this.atMs !== Math.max(at, now)) this.sched.again(this, at);
    this.armTick();
    this.publish();
  }

  /** The timer: applies the changes due, then tells the host what ended, crashed or timed out. */
  fire(): void {
    const now = this.sched.nowMs;
    this.advance(now);
    this.tellTokens(now);
    while (this.ended.length > 0) this.host.runEnded(this.ended.shift()!.job, 'complete');
    const c = this.crash;
    if (c !== undefined) return this.host.runEnded(c.job, 'crash');
    if (this.earliestDeadline() <= now)
      for (const list of [this.running, this.waiting])
        for (const s of [...list]) if (!s.removed && s.deadlineMs <= now && this.find(s.job) === s) this.host.runEnded(s.job, 'timeout');
    this.arm();
  }

  /** The earliest execution deadline of a job held (kept until a job leaves: most arms add nothing to look at). */
  private earliestDeadline(): number {
    if (this.deadline >= 0) return this.deadline;
    let at = Infinity;
    for (const s of this.running) if (!s.removed && s.deadlineMs < at) at = s.deadlineMs;
    for (const s of this.waiting) if (s.deadlineMs < at) at = s.deadlineMs;
    this.deadline = at;
    return at;
  }

  /** Tells the host of watched sequences' new tokens (`arm` then sets the tick at the next one). */
  private tellTokens(now: number): void {
    if (this.preemptedWaiting > 0) this.tellPreempted();
    const run = this.running;
    let i = 0;
    while (i < run.length && (!run[i]!.watched || run[i]!.removed)) i++;
    // Most fires watch nothing (a stream taken whole at its end): no copy then.
    if (i === run.length) return;
    // A copy: what the host does with a token (a client's next request) may change the batch.
    for (const s of run.slice(i)) {
      if (!s.watched || s.removed) continue;
      const n = this.producedBy(s, now);
      if (n > s.told) {
        s.told = n;
        s.watched = this.host.tokensLanded(s.job);
      }
    }
  }

  /** Tokens a preempted sequence made before it was preempted, told to its watchers from the waiting jobs. */
  private tellPreempted(): void {
    for (const s of [...this.waiting]) {
      if (!s.watched || s.done <= s.told) continue;
      s.told = s.done;
      s.watched = this.host.tokensLanded(s.job);
    }
  }

  private armTick(): void {
    let at = Infinity;
    const now = this.sched.nowMs;
    for (const s of this.running) {
      if (!s.watched || s.removed || s.firstIter < 0 || s.told >= s.tokens) continue;
      const t = s.told < s.done ? s.doneAtMs![s.told]! : this.segs.endOf(s.firstIter + s.told - s.done);
      at = Math.min(at, Math.max(now, Math.ceil(t)));
    }
    if (at === Infinity || !this.busy) return void this.sched.cancel(this.tick);
    if (this.tick === undefined) this.tick = this.sched.at(at, tickFired, this);
    else if (this.tick.idx === -1 || this.tick.atMs !== at) this.sched.again(this.tick, at);
  }

  /** The tick: tells the new tokens of watched sequences. */
  ticked(): void {
    const now = this.sched.nowMs;
    this.advance(now);
    this.tellTokens(now);
    this.arm();
  }
}

function fire(e: LlmEngine): void {
  e.fire();
}

function tickFired(e: LlmEngine): void {
  e.ticked();
}

/** Removes `j`'s entry from `list`; true if there was one. */
function drop(list: EngineSeq[], j: Job): boolean {
  const i = list.findIndex((s) => s.job === j);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
}
