/**
 * What holds for the whole run, sampled at its start and every window end so a query finds it
 * anywhere in the run: the run's info, its start and end instants (Grafana annotations), the
 * limits it ran under (headroom panels), and the virtual clock.
 */
import { CLIENT_METRIC, METRIC } from '../../contract/metric-names.js';
import type { Series } from './om-emitter.js';
import type { OmContext } from './om-context.js';

export function runFamilies({ r, e, startMs, tl, steady }: OmContext): void {
  e.info(
    CLIENT_METRIC.run,
    'The run these metrics come from',
    e.labels(['seed', String(r.scenario.seed)], ['kind', r.kind], ['target', r.target.kind], ['causes', r.target.causes]),
    steady.steady(1),
  );
  e.gauge(CLIENT_METRIC.runStartTime, 'When the run started, Unix seconds', [[e.labels(), steady.steady(startMs / 1000)]], 'seconds');
  e.gauge(CLIENT_METRIC.runEndTime, 'When the run ended, Unix seconds', [[e.labels(), steady.steady((startMs + tl.endMs) / 1000)]], 'seconds');

  const h = r.headroom;
  const limits: Series[] = [];
  for (const o of h.operations)
    if (o.ratePer10s !== null) limits.push([e.labels(['limit', 'rate'], ['operation', o.operation]), steady.steady(o.ratePer10s / 10)]);
  for (const o of h.operations)
    if (o.concurrency !== null) limits.push([e.labels(['limit', 'concurrency'], ['operation', o.operation]), steady.steady(o.concurrency)]);
  limits.push([e.labels(['limit', 'queue']), steady.steady(h.queueThrottleAt)], [e.labels(['limit', 'workers']), steady.steady(h.workersMax)]);
  e.gauge(
    CLIENT_METRIC.limit,
    'Limits the endpoint runs under: rate (requests per second, the per-10 s limit / 10) and concurrency (requests in flight) per operation, queue (depth where throttling starts), workers (workersMax)',
    limits,
  );

  if (r.target.kind !== 'http') {
    const pts = tl.steady(0).map(([t]) => [t, t / 1000] as const);
    e.gauge(METRIC.virtualTime, 'Virtual time since the start of the run (seconds)', [[e.labels(), pts]], 'seconds');
  }
}
