/**
 * A deterministic simulated completion: words picked by a hash of the job id, so the same seed
 * gives the same text. One word stands for one token; token k > 0 is written with a space before
 * it, so the pieces joined are the text.
 */
const WORDS = [
  'the',
  'queue',
  'worker',
  'scales',
  'to',
  'meet',
  'load',
  'and',
  'each',
  'job',
  'finishes',
  'in',
  'virtual',
  'time',
  'while',
  'limits',
  'hold',
  'steady',
  'under',
  'traffic',
  'with',
  'a',
  'small',
  'delay',
];

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The first `tokens` words of the job's completion. */
export function completionWords(jobId: string, tokens: number): string[] {
  const out: string[] = [];
  let h = hash(jobId);
  for (let i = 0; i < tokens; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    out.push(WORDS[h % WORDS.length]!);
  }
  return out;
}

/** Tokens `from` to `to - 1` (0-based) of the job's completion as streamed pieces. */
export function tokenPieces(jobId: string, from: number, to: number): string[] {
  const words = completionWords(jobId, to);
  const out: string[] = [];
  for (let k = from; k < to; k++) out.push(k === 0 ? words[k]! : ` ${words[k]}`);
  return out;
}
