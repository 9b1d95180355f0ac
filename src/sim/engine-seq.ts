/** One job in a worker's batching engine (llm-engine.ts). */
import type { Job } from './job.js';

export class EngineSeq {
  /** Global iteration of its first token; -1 while its prompt is not prefilled. */
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
  constructor(
    readonly job: Job,
    /** Arrival order in its engine (a crash sends the jobs back in it). */
    readonly order: number,
    /** Exact ms from which it may join a batch (its start + overheadMs). */
    readonly readyAtMs: number,
    /** Prompt tokens still to prefill (at least 1 to begin with: the first token needs a forward pass). */
    public promptLeft: number,
    /** Tokens its run produces. */
    readonly tokens: number,
    /** Its execution deadline (whole ms). */
    readonly deadlineMs: number,
    /** The worker crashes once this many tokens are out (0: never). */
    readonly crashAfter: number,
  ) {}
}
