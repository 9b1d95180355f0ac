/**
 * The reference model's held requests: `/runsync` and `/status-sync` wait for the job's end (or
 * their wait); OpenAI chat completions are held until the job ends. A streamed one on an llm
 * endpoint answers at its first token and gets every token at the instant it was produced (the
 * model keeps those instants and answers when the stream ends: [DONE] after the finish reason, or
 * the job's status as the error code); without llm every token comes at the end. A worker crash
 * re-runs the job: the tokens a stream was sent are not sent again.
 *
 * Token instants: the token model's land on the ms of their event; an engine's are exact
 * (fractional ms), taken from the engine's own list of the run's tokens.
 */
import { DEFAULT_COMPLETION_TOKENS, DEFAULT_WAIT_MS, NOT_FOUND, openaiErr } from './answers.js';
import { isEnded, refBody, type RefJob } from './job.js';
import type { RefOp } from './limits.js';
import type { Hold } from './model-state.js';
import { RefWorkers } from './model-workers.js';
import type { RefAnswer } from './types.js';

export abstract class RefHolds extends RefWorkers {
  protected holdUntilEnd(req: number, op: RefOp, j: RefJob, waitMs: number | undefined): RefAnswer | undefined {
    if (isEnded(j.status)) return { status: 200, body: refBody(j, this.nowMs) };
    this.holds.push({ req, op, job: j, untilMs: this.nowMs + (waitMs ?? DEFAULT_WAIT_MS), stamp: this.stamp() });
    return undefined;
  }

  /** `j` ended or is gone: its held requests are answered. */
  protected answerHolds(j: RefJob, answer: () => RefAnswer): void {
    for (const h of this.holds.filter((x) => x.job === j)) this.answer(h, h.chat ? this.chatAnswer(h, j.gone) : answer());
  }

  /** A held request's wait ran out: its answer now, unless it is a stream that has begun (it ends with its job). */
  protected waitEnded(h: Hold): void {
    if (h.chat?.body.stream && this.cfg.llm && h.chat.sentAt.length > 0) h.untilMs = Infinity;
    else this.answer(h, h.chat ? this.chatAnswer(h, false) : { status: 200, body: refBody(h.job, this.nowMs) });
  }

  /** Streams of `j` get the tokens produced beyond those they were sent (`j.tokensDone` of them). */
  protected sendTokens(j: RefJob): void {
    for (const h of this.streamsOf(j)) {
      const sent = h.chat!.sentAt;
      while (sent.length < j.tokensDone) sent.push(j.engineTimes ? j.engineTimes[sent.length]! : this.nowMs);
    }
  }

  /**
   * An OpenAI request's answer now (its job ended or is gone, or its wait ran out). Unstreamed:
   * the completion's finish reason and tokens, or the error. Streamed: every token's instant and
   * how the stream ended (finish reason, or the error code once it had begun).
   */
  private chatAnswer(h: Hold, gone: boolean): RefAnswer {
    const j = h.job;
    const c = h.chat!;
    const started = c.sentAt.length > 0;
    const failure = gone ? 'job_not_found' : j.status !== 'COMPLETED' ? j.status : undefined;
    if (failure !== undefined && !started) return gone ? openaiErr(NOT_FOUND()) : { status: 500, body: { code: failure } };
    if (failure !== undefined) return { status: 200, body: { tokensAt: c.sentAt, end: failure } };
    const count = j.tokens?.count ?? c.body.max_tokens ?? DEFAULT_COMPLETION_TOKENS;
    const finish = j.tokens?.capped ? 'length' : 'stop';
    // With prefix caching the usage tells the prompt tokens found cached when the run joined its batch.
    const cached = this.cfg.llm?.engine?.prefixCaching ? { cached: j.cachedTokens } : {};
    if (!c.body.stream) return { status: 200, body: { finish, tokens: count, ...cached } };
    // Without llm every token comes at the end.
    while (c.sentAt.length < count && !this.cfg.llm) c.sentAt.push(this.nowMs);
    const body: Record<string, unknown> = { tokensAt: c.sentAt, end: finish };
    if (c.body.stream_options?.include_usage) Object.assign(body, { usage: c.sentAt.length, ...cached });
    return { status: 200, body };
  }

  private answer(h: Hold, a: RefAnswer): void {
    this.holds = this.holds.filter((x) => x !== h);
    this.limits.release(h.op);
    this.late.push({ req: h.req, atMs: this.nowMs, ...a });
  }
}
