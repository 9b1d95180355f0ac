/**
 * Figures the report has only for the whole run: counters with two points (0 at the start, the
 * total at the end, so `increase()` over the run is right) and summaries of the run's quantiles
 * at its end.
 */
import { CLIENT_METRIC, METRIC } from '../../contract/metric-names.js';
import type { Series } from './om-emitter.js';
import type { OmContext } from './om-context.js';
import { family } from './timeline-families.js';

const RUN = '(start and end of the run)';

export function wholeRunFamilies({ r, e, tl }: OmContext): void {
  const ops = Object.entries(r.operations);
  e.counter(
    CLIENT_METRIC.retries429,
    `Requests re-sent after a 429 and a back-off ${RUN}`,
    ops.map(([op, o]) => [e.labels(['operation', op]), tl.whole(o.retried429)]),
  );
  e.counter(family(METRIC.jobsAccepted), `Jobs the API accepted (an id came back); no kind label ${RUN}`, [[e.labels(), tl.whole(r.jobs.accepted)]]);
  e.counter(family(METRIC.jobsRequeued), `/retry calls that re-queued a FAILED or TIMED_OUT job ${RUN}`, [
    [e.labels(['reason', 'retry']), tl.whole(r.jobs.retriedByClient)],
  ]);
  e.counter(
    CLIENT_METRIC.sessions,
    `Client sessions by flow and how they ended ${RUN}`,
    Object.entries(r.flows).flatMap(([flow, f]) => Object.entries(f.outcomes).map(([o, v]): Series => [e.labels(['flow', flow], ['outcome', o]), tl.whole(v)])),
  );
  const streams = Object.entries(r.flows).flatMap(([flow, f]) => (f.stream?.promptTokens !== undefined ? [[flow, f.stream] as const] : []));
  if (streams.length) {
    e.counter(
      CLIENT_METRIC.streamPromptTokens,
      `Prompt tokens a streaming flow sent (4 characters a token), each request once ${RUN}`,
      streams.map(([flow, s]): Series => [e.labels(['flow', flow]), tl.whole(s.promptTokens!)]),
    );
    const told = streams.filter(([, s]) => s.cachedPromptTokens !== undefined);
    if (told.length)
      e.counter(
        CLIENT_METRIC.streamCachedPromptTokens,
        `Prompt tokens the answers' usage told were served from the prefix cache (prompt_tokens_details.cached_tokens): over the prompt tokens sent, the flow's prefix cache hit rate ${RUN}`,
        told.map(([flow, s]): Series => [e.labels(['flow', flow]), tl.whole(s.cachedPromptTokens!)]),
      );
  }
  const wk = r.workers;
  if (wk) {
    e.counter(
      CLIENT_METRIC.workerSeconds,
      `Worker-seconds by worker state, as the simulator ran them ${RUN}`,
      Object.entries(wk.secondsByState).map(([s, v]): Series => [e.labels(['state', s]), tl.whole(v)]),
      'seconds',
    );
    e.counter(
      CLIENT_METRIC.workerBilledSeconds,
      `Billed worker-seconds: flex workers rounded up per worker, idle tail included; active workers for the whole run ${RUN}`,
      [
        [e.labels(['billing', 'flex']), tl.whole(wk.billedSeconds.flex)],
        [e.labels(['billing', 'active']), tl.whole(wk.billedSeconds.active)],
      ],
      'seconds',
    );
    if (wk.byGpu?.length) {
      e.counter(
        CLIENT_METRIC.gpuWorkerSeconds,
        `Worker-seconds on each GPU type by worker state; time waiting for room on every type is on none ${RUN}`,
        wk.byGpu.flatMap((g) => Object.entries(g.secondsByState).map(([s, v]): Series => [e.labels(['gpu', g.gpu], ['state', s]), tl.whole(v)])),
        'seconds',
      );
      e.counter(
        CLIENT_METRIC.gpuWorkerBilledSeconds,
        `Billed worker-seconds on each GPU type, flex and active (the active seconds shared out by the time each type's active workers held a slot) ${RUN}`,
        wk.byGpu.flatMap((g): Series[] => [
          [e.labels(['gpu', g.gpu], ['billing', 'flex']), tl.whole(g.billedSeconds.flex)],
          [e.labels(['gpu', g.gpu], ['billing', 'active']), tl.whole(g.billedSeconds.active)],
        ]),
        'seconds',
      );
    }
  }

  const end = tl.endMs;
  e.summary(
    CLIENT_METRIC.serviceSeconds,
    'Actual send to answer (whole run, at its end)',
    end,
    ops.map(([op, o]) => [e.labels(['operation', op]), o.serviceMs]),
  );
  e.summary(CLIENT_METRIC.cancelLatencySeconds, '/cancel sent to the answer CANCELLED (whole run, at its end)', end, [[e.labels(), r.jobs.cancelLatencyMs]]);
  e.summary(CLIENT_METRIC.webhookLatenessSeconds, 'Acknowledged webhook delivery minus job end (whole run, at its end)', end, [
    [e.labels(), r.webhooks.latenessMs],
  ]);
  e.summary(CLIENT_METRIC.sendLagSeconds, 'Actual minus intended send time of every request (whole run, at its end)', end, [
    [e.labels(), r.arrivals.sendLagMs],
  ]);
}
