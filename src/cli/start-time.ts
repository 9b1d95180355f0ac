/**
 * `loadlab run --start-time`: the real instant that time 0 of the run maps to in metrics.om (the
 * same forms are read for `--start-at`, cli/start-at.ts).
 * Accepted: epoch milliseconds (digits only) or an ISO-8601 date (`2024-05-01`, UTC midnight) or
 * date-time with a zone (`2024-05-01T12:00:00Z`, `…+02:00`). A date-time without a zone is
 * refused: read as local time, the same command would write different bytes on another machine.
 */
import { CliError, EXIT } from './exit-codes.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function parseStartTime(s: string, flag = '--start-time'): number {
  const bad = (why: string) =>
    new CliError(`${flag}: ${why}; give an ISO-8601 instant with a zone (e.g. 2024-05-01T12:00:00Z) or epoch milliseconds (e.g. 1714564800000)`, EXIT.USAGE);
  if (/^\d+$/.test(s)) {
    const ms = Number(s);
    if (!Number.isSafeInteger(ms) || ms > 8.64e15) throw bad(`${s} is out of range`);
    return ms;
  }
  const m = ISO.exec(s);
  if (!m) throw bad(`cannot read "${s}"${/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s) ? ' (a date-time needs a zone: Z or ±hh:mm)' : ''}`);
  const [, y, mo, d, h, mi, sec] = m.map((x) => (x === undefined ? undefined : Number(x)));
  const daysInMonth = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > daysInMonth || (h ?? 0) > 23 || (mi ?? 0) > 59 || (sec ?? 0) > 59) throw bad(`"${s}" is not a valid date and time`);
  return Date.parse(s);
}

/** The default: the run's last sample falls on the wall-clock second the run ended (never in the future), which suits Grafana's "last N minutes". */
export function defaultStartTime(elapsedMs: number, nowMs = Date.now()): number {
  return Math.floor((nowMs - elapsedMs) / 1000) * 1000;
}
