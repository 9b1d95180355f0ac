/**
 * A lockstep run equals the in-process run only from a server at its start: virtual time 0, no
 * request received, no marker queued. A second run against the same `serve --clock manual` would
 * find the first run's jobs, workers, rate-limit windows and random streams where they were left,
 * and report different figures without a sign of it; so it is refused (exit 2) instead.
 */
import { splitBase } from '../http/http-target.js';
import { LockstepAdmin, type Counts } from './admin.js';
import { UsageError } from '../../usage-error.js';

/** Why these counts are not a server at its start, or undefined when they are. */
export function notAtStart(c: Counts): string | undefined {
  if (c.now === 0 && c.received === 0 && c.ended === 0 && c.markers === 0) return undefined;
  return (
    `the lockstep server is not at its start (virtual time ${c.now} ms, ${c.received} requests received, ${c.markers} markers fired): ` +
    'a lockstep run needs a freshly started `loadlab serve --clock manual` (restart it before each run)'
  );
}

/** Reads the server's clock and counts; throws a UsageError when it is not at its start. */
export async function checkLockstepFresh(url: string, apiKey: string): Promise<void> {
  const admin = new LockstepAdmin(splitBase(url).origin, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  try {
    const why = notAtStart(await admin.clock());
    if (why) throw new UsageError(why);
  } finally {
    await admin.close();
  }
}
