/**
 * `loadlab run --start-at INSTANT`: the wall instant the run's time 0 waits for, so shards
 * started on several machines (or pods scheduled at different moments) send on one timeline. The
 * forms of `--start-time` (cli/start-time.ts): ISO-8601 with a zone, or epoch ms.
 */
import { CliError, EXIT } from './exit-codes.js';
import { parseStartTime } from './start-time.js';

/** Furthest ahead an instant may be (ms): further is surely a mistake (a wrong date or zone). */
export const START_AT_MAX_AHEAD_MS = 24 * 3600_000;
/**
 * Latest an instant may be already past (ms): a pod that starts this late still runs, from the
 * common time 0, its first arrivals sent late (and counted late), with a warning. Later than
 * this the shard would not be on its peers' timeline: refused.
 */
export const START_AT_LATE_MS = 5000;

export interface StartAt {
  /** Epoch ms of time 0. */
  atMs: number;
  /** Said on stderr before the run when the instant is already past. */
  warning?: string;
}

export function parseStartAt(text: string, nowMs: number = Date.now()): StartAt {
  const atMs = parseStartTime(text, '--start-at');
  const iso = new Date(atMs).toISOString();
  const ahead = atMs - nowMs;
  if (ahead > START_AT_MAX_AHEAD_MS) {
    throw new CliError(`--start-at: ${iso} is ${(ahead / 3600_000).toFixed(1)} h ahead; at most 24 h ahead is accepted (a wrong date or zone?)`, EXIT.USAGE);
  }
  if (-ahead > START_AT_LATE_MS) {
    throw new CliError(
      `--start-at: ${iso} was ${(-ahead / 1000).toFixed(1)} s ago; at most ${START_AT_LATE_MS / 1000} s late is accepted (the run would not be on the other shards' timeline): give a later instant`,
      EXIT.USAGE,
    );
  }
  if (ahead < 0)
    return {
      atMs,
      warning: `--start-at: ${iso} was ${(-ahead / 1000).toFixed(1)} s ago; starting at once on that timeline, the arrivals due meanwhile sent late (and counted late)`,
    };
  return { atMs };
}
