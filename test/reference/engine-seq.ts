/** One job in the reference engine (engine.ts): what it has to do, what it has done. */
import type { RefJob } from './job.js';

export interface Seq {
  job: RefJob;
  readyAtMs: number;
  promptLeft: number;
  count: number;
  /** Tokens out when the worker crashes (0: never). */
  crashAfter: number;
  deadlineMs: number;
  /** Exact instant of each token so far. */
  times: number[];
  /** Prompt tokens prefilled in the iteration under way. */
  chunk: number;
  removed: boolean;
  watched: boolean;
  /** Tokens told to its streams. */
  told: number;
  /** Its prompt (at least 1 token), and the tokens it prefills when it (re)joins: the prompt, and after a preemption its tokens so far. */
  prompt: number;
  fill: number;
  /** Its tokens when it last joined (after a preemption: those made before). */
  pieceStart: number;
  /** With prefix caching: its prompt's full blocks (prefix-cache.ts); empty without. */
  ids: string[];
  /** With prefix caching: prompt tokens found cached when it first joined (-1: not yet). */
  cached: number;
}

export function newSeq(job: RefJob, readyAtMs: number, promptTokens: number, count: number, deadlineMs: number, crashAfter: number): Seq {
  // A prompt is at least one token: the first token needs a forward pass over something.
  const prompt = Math.max(1, promptTokens);
  return {
    job,
    readyAtMs,
    promptLeft: prompt,
    count,
    crashAfter,
    deadlineMs,
    times: [],
    chunk: 0,
    removed: false,
    watched: false,
    told: 0,
    prompt,
    fill: prompt,
    pieceStart: 0,
    ids: [],
    cached: -1,
  };
}

/** Takes `job`'s sequence out of `list`; true if it was there. */
export function drop(list: Seq[], job: RefJob): boolean {
  const i = list.findIndex((s) => s.job === job);
  if (i >= 0) list.splice(i, 1);
  return i >= 0;
}
