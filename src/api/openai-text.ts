/**
 * A deterministic simulated completion: words picked by a hash of the job id, so the same seed
 * gives the same text. The length is `max_tokens` (or `max_completion_tokens`), default 16, at
 * most 4096 words — one word stands for one token.
 */
const WORDS = [
  'the', 'queue', 'worker', 'scales', 'to', 'meet', 'load', 'and', 'each', 'job', 'finishes', 'in', 'virtual',
  'time', 'while', 'limits', 'hold', 'steady', 'under', 'traffic', 'with', 'a', 'small', 'delay',
];

export const DEFAULT_COMPLETION_TOKENS = 16;
export const MAX_COMPLETION_TOKENS = 4096;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function completionWords(jobId: string, tokens: number): string[] {
  const out: string[] = [];
  let h = hash(jobId);
  for (let i = 0; i < tokens; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    out.push(WORDS[h % WORDS.length]!);
  }
  return out;
}

/** Rough prompt size: whitespace-separated words of every string in the request's messages or prompt. */
export function promptTokens(x: unknown): number {
  if (typeof x === 'string') return x.split(/\s+/).filter(Boolean).length;
  if (Array.isArray(x)) return x.reduce((n: number, y) => n + promptTokens(y), 0);
  if (x && typeof x === 'object') return Object.values(x).reduce((n: number, y) => n + promptTokens(y), 0);
  return 0;
}
