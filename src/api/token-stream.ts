/**
 * A streamed OpenAI answer on an `llm:` endpoint: held until the job's first token, then answered
 * 200 with a feed (sse-feed.ts) that gets each token's chunk at the virtual instant the token is
 * produced, then the `finish_reason` chunk, the usage chunk when asked for, and `[DONE]`.
 *
 * A job that ends otherwise before its first token gets the same error answer as an unstreamed
 * one; after it, the stream ends with an error event (`{"error": {…, "code": status}}`) and no
 * `[DONE]`. A worker crash re-runs the job: its tokens already sent are not sent again.
 */
import type { Job, JobWaiter } from '../sim/job.js';
import type { Timer } from '../lib/scheduler.js';
import { tokenPieces } from '../sim/token-text.js';
import { apiError } from './errors.js';
import { DONE, type ChunkWriter } from './openai-chunks.js';
import { openaiShaped } from './openai-errors.js';
import { chunkWriter, jobEndedError, usageOf, type Completion } from './openai-completion.js';
import { SseFeed } from './sse-feed.js';
import type { RouteContext } from './types.js';

export function streamTokens(ctx: RouteContext, j: Job, c: Completion): void {
  const s = new TokenStream(ctx, j, c);
  s.timer = ctx.sim.sched.after(ctx.ep.answerWithinMs(j), waitEnded, s);
  ctx.ep.wait(j, s);
  ctx.held = s;
}

class TokenStream implements JobWaiter {
  timer: Timer | undefined = undefined;
  private feed: SseFeed | undefined = undefined;
  private writer: ChunkWriter | undefined = undefined;
  /** Tokens sent so far. */
  private sent = 0;

  constructor(
    readonly ctx: RouteContext,
    readonly job: Job,
    private readonly c: Completion,
  ) {}

  /** Each token as it lands until the answer began; after that only while the transport sends events live. */
  get wantsChunks(): boolean {
    return this.feed === undefined || this.feed.live;
  }

  update(change: 'chunk' | 'terminal' | 'gone'): boolean {
    const { ctx, job } = this;
    if (change === 'chunk') {
      this.flush();
      return false;
    }
    ctx.sim.sched.cancel(this.timer);
    if (change === 'gone') {
      const r = apiError('API_ERR_JOB_NOT_FOUND', `job ${ctx.ep.jobs.idOf(job)} was removed (ttl or retention expired)`);
      if (this.feed === undefined) ctx.respond(r);
      else this.fail(openaiShaped(r).body);
      return true;
    }
    if (job.status !== 'COMPLETED') {
      if (this.feed === undefined) ctx.respond(jobEndedError(ctx, job));
      else this.fail(jobEndedError(ctx, job).body);
      return true;
    }
    this.flush();
    const t = ctx.ep.tokensOf(job);
    const now = ctx.sim.nowMs;
    const w = this.writer!;
    const feed = this.feed!;
    // Spelt out only if read (sse-feed.ts): in process the run reads the digest.
    const reason = t?.capped ? 'length' : 'stop';
    feed.push(() => w.finish(reason), now);
    if (this.c.includeUsage) {
      const u = usageOf(this.c, this.sent, ctx.ep.promptOf(job));
      feed.usageTokens = u.completion_tokens;
      if (u.prompt_tokens_details !== undefined) feed.cachedTokens = u.prompt_tokens_details.cached_tokens;
      feed.push(() => w.usage(u), now);
    }
    feed.push(DONE, now);
    feed.end();
    return true;
  }

  /** Sends the tokens produced since the last call; the first one answers the request. */
  private flush(): void {
    const { ctx, job } = this;
    const done = ctx.ep.tokensDone(job);
    if (done <= this.sent) return;
    if (this.feed === undefined) {
      this.writer = chunkWriter(ctx, job, this.c);
      this.feed = new SseFeed(() => this.abort());
      const id = ctx.ep.jobs.idOf(job);
      const w = this.writer;
      this.feed.setTokenWriter((from, to) => tokenPieces(id, from, to).map((p, i) => w.token(p, from + i === 0)));
      ctx.respond({ status: 200, feed: this.feed });
    }
    const now = ctx.sim.nowMs;
    const feed = this.feed;
    // An engine's tokens carry their exact instants; the token model's land on the ms they are sent in.
    // A feed that is not live takes each token as its index (sse-feed.ts): nothing is written unless read.
    const t = ctx.ep.tokenTimes(job);
    for (let k = this.sent; k < done; k++) feed.push(k, t !== undefined && k < t.atMs.length ? t.startMs + t.atMs[k]! : (ctx.ep.tokenAtMs(job, k) ?? now));
    this.sent = done;
  }

  /** The stream ends with an error event (the job ended otherwise after its first token, or was removed). */
  private fail(body: unknown): void {
    const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
    this.feed!.errorCode = typeof code === 'string' ? code : '';
    this.feed!.push(JSON.stringify(body), this.ctx.sim.nowMs);
    this.feed!.end();
  }

  /** The client went away first. */
  abort(): void {
    this.ctx.sim.sched.cancel(this.timer);
    this.ctx.ep.unwait(this.job, this);
  }

  /** The wait ran out: answered as an unstreamed request is, unless the stream has begun (it ends with the job). */
  waitEnded(): void {
    if (this.feed !== undefined) return;
    this.ctx.ep.unwait(this.job, this);
    this.ctx.respond(jobEndedError(this.ctx, this.job));
  }
}

function waitEnded(s: TokenStream): void {
  s.waitEnded();
}
