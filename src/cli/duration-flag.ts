/**
 * A duration given on the command line: whole ms (`250`), or a number with a unit, `ms`, `s`,
 * `m` or `h` (`200ms`, `5s`, `1.5s`, `1m`): the units of a threshold's `every`.
 */
import { UNIT_MS } from '../report/threshold-parse.js';
import { CliError } from './exit-codes.js';

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;

/** `text` in whole ms; a CliError (exit 2) naming `flag` for anything else. */
export function parseDurationFlag(flag: string, text: string): number {
  const m = DURATION.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[(m[2] ?? 'ms') as keyof typeof UNIT_MS] : NaN;
  if (!Number.isSafeInteger(ms)) throw new CliError(`${flag}: a duration in whole ms, e.g. 5s, 200ms, 1m or 250 (ms), got ${JSON.stringify(text)}`);
  return ms;
}
