/**
 * Per operation and window, from `windows` (histogram windows): requests sent, answers by status,
 * most requests in flight. A report without these columns (older, or a blast) falls back to what
 * it has: requests from the timeline without an operation label, answers by status for the whole
 * run (0 at the start, the total at the end), in-flight maxima from the timeline without an
 * operation label.
 */
import { CLIENT_METRIC } from '../../contract/metric-names.js';
import type { Series } from './om-emitter.js';
import { per, type OmContext } from './om-context.js';

export function operationFamilies({ r, e, tl, win }: OmContext): void {
  const ops = Object.entries(r.operations);
  const w = r.windows;
  const requestsHelp = 'Requests sent by the load client, every attempt, 429 re-sends included';
  if (win && w?.requests) {
    e.counter(
      CLIENT_METRIC.requests,
      `${requestsHelp} (${per(win)})`,
      Object.entries(w.requests).map(([op, col]): Series => [e.labels(['operation', op]), win.cumulative(col)]),
    );
  } else {
    e.counter(CLIENT_METRIC.requests, `${requestsHelp}; no operation label (${per(tl)})`, [[e.labels(), tl.cumulative(r.timeline.requests)]]);
  }

  const responsesHelp = 'Answers by operation and HTTP status, status 0: no answer (timeout or transport error)';
  if (win && w?.responses) {
    e.counter(
      CLIENT_METRIC.responses,
      `${responsesHelp} (${per(win)})`,
      Object.entries(w.responses).flatMap(([op, byStatus]) =>
        Object.entries(byStatus).map(([st, col]): Series => [e.labels(['operation', op], ['status', st]), win.cumulative(col)]),
      ),
    );
  } else {
    e.counter(
      CLIENT_METRIC.responses,
      `${responsesHelp} (start and end of the run)`,
      ops.flatMap(([op, o]) => Object.entries(o.byStatus).map(([st, v]): Series => [e.labels(['operation', op], ['status', st]), tl.whole(v)])),
    );
  }

  if (win && w?.inFlightMax) {
    e.gauge(
      CLIENT_METRIC.inFlightMax,
      `Most requests of the operation in flight at once in the window (${per(win)})`,
      Object.entries(w.inFlightMax).map(([op, col]): Series => [e.labels(['operation', op]), win.values(col)]),
    );
  } else {
    e.gauge(CLIENT_METRIC.inFlightMax, `Most requests in flight at once in the window, seen at sends; no operation label (${per(tl)})`, [
      [e.labels(), tl.values(r.timeline.inFlightMax)],
    ]);
  }
}
