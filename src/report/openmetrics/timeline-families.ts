/**
 * The timeline's columns (RunResult `timeline`, 10 s windows) as per-window counters — 0 at the
 * start, the running total at every window end — and the probes' deepest queue as a gauge.
 * Figures the report has only for the whole run (jobs by status other than COMPLETED; webhook
 * outcomes of a report without `timeline.webhookGaveUp`) have two points: 0 at the start and the
 * total at the end, so `increase()` over the run is right.
 */
import { CLIENT_METRIC, METRIC } from '../../contract/metric-names.js';
import { BALANCER_CAUSES } from '../../contract/sim-events.js';
import { BALANCER_COLUMN } from '../timeline-columns.js';
import type { Series } from './om-emitter.js';
import { per, type OmContext } from './om-context.js';

/** `name_total` of a serve counter → the family name. */
export const family = (sampleName: string): string => sampleName.replace(/_total$/, '');

export function timelineFamilies(c: OmContext): void {
  const { r, e, tl: g } = c;
  const tl = r.timeline;
  const w = per(g);
  const one = (col: readonly number[]): Series[] => [[e.labels(), g.cumulative(col)]];
  const sum = (col: readonly number[]) => col.reduce((a, b) => a + b, 0);

  e.counter(CLIENT_METRIC.responses2xx, `Answers with a 2xx status (${w})`, one(tl.responses2xx));
  const causes = [
    ['rate', tl.limitedRate],
    ['concurrency', tl.limitedConcurrency],
    ['queue', tl.limitedQueue],
    ['unknown', tl.limitedUnknown],
  ] as const;
  e.counter(
    family(METRIC.requestsLimited),
    `Answers 429 by the limit hit, as the client saw them; no operation label (${w})`,
    causes.filter(([cause, col]) => cause !== 'unknown' || sum(col) > 0).map(([cause, col]) => [e.labels(['cause', cause]), g.cumulative(col)]),
  );
  balancerFailed(c);
  e.counter(CLIENT_METRIC.timeouts, `Requests the client gave up waiting for (${w})`, one(tl.clientTimeouts));
  e.counter(family(METRIC.jobsFinished), `Terminal statuses read by clients: COMPLETED ${w}, other statuses at the start and end of the run`, [
    [e.labels(['status', 'COMPLETED']), g.cumulative(tl.jobsCompleted)],
    ...Object.entries(r.jobs.finalStatus)
      .filter(([s]) => s !== 'COMPLETED')
      .map(([s, v]): Series => [e.labels(['status', s]), g.whole(v)]),
  ]);
  e.counter(CLIENT_METRIC.jobsFailed, `Jobs read FAILED or TIMED_OUT (${w})`, one(tl.jobsFailed));
  e.counter(CLIENT_METRIC.expiriesSeen, `404s for jobs known to exist: the result expired before the client read it (${w})`, one(tl.expiriesSeen));
  e.counter(CLIENT_METRIC.webhookFailures, `Webhook attempts the receiver failed (${w})`, one(tl.webhookFailures));
  e.counter(CLIENT_METRIC.streamChunks, `Partial outputs received from /stream or streamed chat (${w})`, one(tl.streamChunks));
  e.counter(CLIENT_METRIC.arrivalsLate, `Arrivals sent later than openModel.lateAfterMs after their intended time (${w})`, one(tl.late));
  e.counter(CLIENT_METRIC.arrivalsDropped, `Arrivals never sent: held by the in-flight cap longer than openModel.maxWaitMs (${w})`, one(tl.dropped));
  e.gauge(CLIENT_METRIC.queueJobsMax, `Deepest queue a probe saw in the window (${w}); none where no probe ran`, [[e.labels(), g.values(tl.queueDepthMax)]]);
  webhookAttempts(c);
}

/**
 * A load-balancing endpoint's requests its balancer ended, by cause: per window from the timeline's
 * balancer columns; a report without them (older) has the whole run only.
 */
function balancerFailed({ r, e, tl: g }: OmContext): void {
  const lb = r.operations.lb?.balancerFailed;
  if (!lb) return;
  const name = family(METRIC.balancerFailed);
  const help = "A load-balancing endpoint's requests its balancer ended, by cause, as the client saw them";
  const cols = BALANCER_CAUSES.map((cause) => [cause, r.timeline[BALANCER_COLUMN[cause]]] as const);
  if (cols.every(([, col]) => col !== undefined)) {
    e.counter(
      name,
      `${help} (${per(g)})`,
      cols.map(([cause, col]): Series => [e.labels(['cause', cause]), g.cumulative(col!)]),
    );
    return;
  }
  e.counter(
    name,
    `${help} (start and end of the run)`,
    Object.entries(lb).map(([cause, n]): Series => [e.labels(['cause', cause]), g.whole(n)]),
  );
}

/**
 * Webhook attempts by disjoint outcome, as `serve` counts them: delivered, failed (retried later),
 * gave-up (a job's last attempt failed). Per window from the timeline; a report without
 * `timeline.webhookGaveUp` (older) has them for the whole run only.
 */
function webhookAttempts({ r, e, tl: g }: OmContext): void {
  const wh = r.webhooks;
  if (wh.attempts === 0) return;
  const tl = r.timeline;
  const name = family(METRIC.webhookAttempts);
  const help = 'Webhook attempts by outcome: delivered, failed (retried later), gave-up (the last attempt failed)';
  const attempts = tl.webhookAttempts;
  const gaveUp = tl.webhookGaveUp;
  if (attempts && gaveUp) {
    const delivered = attempts.map((a, i) => a - (tl.webhookFailures[i] ?? 0));
    const failed = tl.webhookFailures.map((f, i) => f - (gaveUp[i] ?? 0));
    e.counter(name, `${help} (${per(g)})`, [
      [e.labels(['outcome', 'delivered']), g.cumulative(delivered)],
      [e.labels(['outcome', 'failed']), g.cumulative(failed)],
      [e.labels(['outcome', 'gave-up']), g.cumulative(gaveUp)],
    ]);
    return;
  }
  e.counter(name, `${help} (start and end of the run)`, [
    [e.labels(['outcome', 'delivered']), g.whole(wh.delivered)],
    [e.labels(['outcome', 'failed']), g.whole(wh.failedAttempts - wh.gaveUp)],
    [e.labels(['outcome', 'gave-up']), g.whole(wh.gaveUp)],
  ]);
}
