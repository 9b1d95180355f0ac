/** `--workers-max FROM..TO` (or a single N): the workersMax values a plan sweeps, in order. */

export const DEFAULT_WORKERS_RANGE = '1..20';
/** The most points one range may have (each is `--seeds` runs). */
export const MAX_POINTS = 1000;

/** The values FROM..TO, or what is wrong with the text. */
export function parseWorkersRange(text: string): number[] | string {
  const m = /^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$/.exec(text);
  if (!m) return `"${text}" is not a range: expected FROM..TO of whole numbers, e.g. 1..20`;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (from < 1) return `"${text}": workersMax starts at 1`;
  if (from > to) return `"${text}": FROM (${from}) is above TO (${to}); write ${to}..${from}`;
  if (to - from + 1 > MAX_POINTS) return `"${text}": ${to - from + 1} points, at most ${MAX_POINTS}`;
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
