/**
 * "Did you mean …?" for names a user typed: the Levenshtein distance and the closest candidate.
 * Pure; used for threshold metric, operation and flow names and for unknown scenario keys.
 */

/** Insertions, deletions and substitutions (each 1) turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `name` (case-insensitive; ties: the first in `candidates`), or
 * undefined when even the nearest differs in more than half of `name`'s characters (min 2), or
 * there are no candidates: a wild guess helps less than none.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const n = name.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(n, c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return bestD <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}

/** `; did you mean "x"?` or nothing: the tail of an error message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closest(name, candidates);
  return c === undefined ? '' : `; did you mean "${c}"?`;
}
