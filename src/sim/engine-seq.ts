/** One job in a worker's batching engine (llm-engine.ts). */
import type { Job } from './job.js';

export class EngineSeq {
  /** Global iteration of the first token of its current piece (since it last joined); -1 while its prompt is not prefilled. */
  firstIter = -1;
  /** Prompt tokens prefilled in the current iteration. */
  chunk = 0;
  /** Taken out (cancelled, timed out, removed): it leaves at the next boundary. */
  removed = false;
  /** Its last token is out. */
  endedRun = false;
  /** Someone follows its tokens (a live stream): the engine tells each new one. */
  watched = false;
  /** Tokens told so far (while watched). */
  told = 0;
  /** Tokens made before it was last preempted (its current piece makes the rest). */
  done = 0;
  /** Exact ms of each of those `done` tokens (empty until a preemption). */
  doneAtMs: number[] | undefined = undefined;
  /** Tokens (re)prefilled when it last joined: its prompt, and after a preemption the tokens made so far too. */
  fill: number;
  /** Prompt tokens still to prefill (at least 1 to begin with: the first token needs a forward pass). */
  promptLeft: number;
  /** With prefix caching: its prompt's full blocks by content id (prefix-cache.ts); undefined without. */
  ids: readonly number[] | undefined = undefined;
  /** With prefix caching: prompt tokens its worker's cache held when it first joined (-1: not yet joined). */
  cachedTokens = -1;
  constructor(
    readonly job: Job,
    /** Arrival order in its engine (a crash sends the jobs back in it). */
    readonly order: number,
    /** Exact ms from which it may join a batch (its start + front end + overheadMs). */
    readonly readyAtMs: number,
    /** Its prompt, at least 1 token. */
    readonly prompt: number,
    /** Tokens its run produces. */
    readonly tokens: number,
    /** Its execution deadline (whole ms). */
    readonly deadlineMs: number,
    /** The worker crashes once this many tokens are out (0: never). */
    readonly crashAfter: number,
  ) {
    this.fill = this.promptLeft = prompt;
  }
}
