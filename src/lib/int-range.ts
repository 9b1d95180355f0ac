/** `FROM..TO` (or a single N) of whole numbers: the values in order, or what is wrong with the text. Pure. */
export function parseIntRange(text: string, what: string, min: number, maxCount: number): number[] | string {
  const m = /^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$/.exec(text);
  if (!m) return `"${text}" is not a range: expected FROM..TO of whole numbers, e.g. 1..20`;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (from < min) return `"${text}": ${what} starts at ${min}`;
  if (from > to) return `"${text}": FROM (${from}) is above TO (${to}); write ${to}..${from}`;
  if (to - from + 1 > maxCount) return `"${text}": ${to - from + 1} points, at most ${maxCount}`;
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
