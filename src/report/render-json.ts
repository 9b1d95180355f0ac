/** report.json: the RunResult as stable, indented JSON (keys in the result's own fixed order). */
import type { RunResult } from './run-result.js';
import { ReportFormatError } from '../contract/loadlab-error.js';

export function renderJson(r: RunResult): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

/** Top-level fields every version has, and the JSON type each holds. */
const REQUIRED: readonly (readonly [keyof RunResult, 'object' | 'number' | 'array'])[] = [
  ['scenario', 'object'],
  ['target', 'object'],
  ['elapsedMs', 'number'],
  ['operations', 'object'],
  ['flows', 'object'],
  ['jobs', 'object'],
  ['webhooks', 'object'],
  ['streams', 'object'],
  ['arrivals', 'object'],
  ['headroom', 'object'],
  ['timeline', 'object'],
  ['thresholds', 'array'],
];

const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

/**
 * Reads a report.json back (re-rendering, comparing, CI checks); versions 1 to 3. Throws a
 * SyntaxError for text that is not JSON, an Error naming the field for anything else.
 */
export function parseRunResult(text: string): RunResult {
  const r = JSON.parse(text) as unknown;
  if (typeOf(r) !== 'object') throw new ReportFormatError(`not a loadlab report: the top level is a JSON ${typeOf(r)}, not an object`);
  const o = r as Record<string, unknown>;
  if (o.version !== 1 && o.version !== 2 && o.version !== 3)
    throw new ReportFormatError(`version: unsupported RunResult version ${String(o.version)} (this loadlab reads 1, 2 and 3)`);
  for (const [k, t] of REQUIRED) {
    if (typeOf(o[k]) !== t)
      throw new ReportFormatError(
        `${k}: ${o[k] === undefined ? 'missing' : `a JSON ${typeOf(o[k])}`}, expected ${t === 'array' ? 'an array' : `a JSON ${t}`} (not a loadlab report.json?)`,
      );
  }
  if (o.shard !== undefined) checkShard(o.shard);
  return r as RunResult;
}

/** The optional `shard` section (run-result.ts ShardSection): a bad one names its field. */
function checkShard(v: unknown): void {
  if (typeOf(v) !== 'object') throw new ReportFormatError(`shard: a JSON ${typeOf(v)}, expected a JSON object {count, indices, startAtMs?}`);
  const s = v as Record<string, unknown>;
  const count = s.count;
  if (!(Number.isSafeInteger(count) && (count as number) >= 1))
    throw new ReportFormatError(`shard.count: expected a whole number >= 1, got ${JSON.stringify(count)}`);
  const idx = s.indices;
  const ok =
    Array.isArray(idx) && idx.length >= 1 && idx.every((i, k) => Number.isSafeInteger(i) && i >= 0 && i < (count as number) && (k === 0 || i > idx[k - 1]));
  if (!ok)
    throw new ReportFormatError(`shard.indices: expected ascending distinct whole numbers from 0 to ${(count as number) - 1}, got ${JSON.stringify(idx)}`);
  if (s.startAtMs !== undefined && !Number.isSafeInteger(s.startAtMs))
    throw new ReportFormatError(`shard.startAtMs: expected epoch milliseconds, got ${JSON.stringify(s.startAtMs)}`);
}
