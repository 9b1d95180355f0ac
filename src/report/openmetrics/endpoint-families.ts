/**
 * The endpoint over time (`windows.endpoint`): time averages per window of its queue, jobs in the
 * system and workers by state (and on each GPU type, for an endpoint that lists its gpus) — exact over the simulator's clock in-process, the mean of the
 * client's `/health` answers against an HTTP target (no sample where no answer fell in the window).
 */
import { CLIENT_METRIC } from '../../contract/metric-names.js';
import type { Series } from './om-emitter.js';
import { per, type OmContext } from './om-context.js';

export function endpointFamilies({ r, e, win }: OmContext): void {
  const ep = r.windows?.endpoint;
  if (!ep || !win) return;
  const how = ep.source === 'simulator' ? "time average over the simulator's clock" : 'mean of the /health answers; none where no answer fell in the window';
  const w = `${how}, ${per(win)}`;
  e.gauge(CLIENT_METRIC.endpointQueueJobs, `Jobs waiting in the endpoint's queue (${w})`, [[e.labels(), win.values(ep.queueLength)]]);
  e.gauge(CLIENT_METRIC.endpointJobsInSystem, `Jobs queued or in progress at the endpoint (${w})`, [[e.labels(), win.values(ep.jobsInSystem)]]);
  e.gauge(
    CLIENT_METRIC.endpointWorkers,
    `The endpoint's workers by state (${w})`,
    Object.entries(ep.workers).map(([state, col]): Series => [e.labels(['state', state]), win.values(col)]),
  );
  if (ep.byGpu?.length)
    e.gauge(
      CLIENT_METRIC.endpointWorkersByGpu,
      `The endpoint's workers placed on each GPU type, by state; a worker waiting for room on every type is on none (${w})`,
      ep.byGpu.flatMap((g) => Object.entries(g.workers).map(([state, col]): Series => [e.labels(['gpu', g.gpu], ['state', state]), win.values(col)])),
    );
}
