/**
 * Streamed answers per streaming flow and window (`windows.streams`): time to first token,
 * inter-token latency and time per output token as classic histograms in seconds, with their own
 * finer buckets (STREAM_BUCKETS_S; the windows hold 0.01 ms, whole ms in older reports), and
 * streamed requests, output tokens and good requests as counters, so `rate(loadlab_client_stream_tokens_total[1m])`
 * is output tokens/s and good over streamed requests is goodput. Nothing for a run without
 * streaming flows.
 */
import { CLIENT_METRIC, STREAM_BUCKETS_MS, STREAM_BUCKETS_S } from '../../contract/metric-names.js';
import { canonicalNumber } from '../openmetrics-text.js';
import type { StreamSeries } from '../run-result.js';
import { windowScale } from '../stream-scale.js';
import type { HistogramBins, HistogramSeries, Series } from './om-emitter.js';
import { per, type OmContext } from './om-context.js';
import { WindowBucketCounter } from './window-buckets.js';

const HISTOGRAMS: readonly (readonly [StreamSeries, string, string])[] = [
  ['ttftMs', CLIENT_METRIC.ttftSeconds, 'Intended send to the first content chunk of a stream (time to first token)'],
  ['itlMs', CLIENT_METRIC.itlSeconds, 'Each gap between consecutive content chunks of a stream (inter-token latency)'],
  ['tpotMs', CLIENT_METRIC.tpotSeconds, '(last - first content chunk) / (tokens - 1) of a stream (time per output token)'],
];

/** The stream times' buckets: STREAM_BUCKETS_S, fine enough to tell a 5, 6 and 7 ms token gap apart. */
const bins = (): HistogramBins => ({ counter: new WindowBucketCounter(STREAM_BUCKETS_MS), les: STREAM_BUCKETS_S.map(canonicalNumber) });

export function streamFamilies({ r, e, win }: OmContext): void {
  const streams = r.windows?.streams;
  if (!win || !streams) return;
  const flows = Object.entries(streams);
  const b = bins();
  for (const [key, name, help] of HISTOGRAMS) {
    e.histogram(
      name,
      `${help}, in the window of its last chunk (${per(win)})`,
      flows.map(([flow, s]): HistogramSeries => [e.labels(['flow', flow]), s[key], win, windowScale(s, key)]),
      b,
    );
  }
  e.counter(
    CLIENT_METRIC.streamRequests,
    `Requests whose stream carried content, in the window of its last chunk (${per(win)})`,
    flows.map(([flow, s]): Series => [e.labels(['flow', flow]), win.cumulative(s.requests)]),
  );
  e.counter(
    CLIENT_METRIC.streamTokens,
    `Output tokens of streamed requests: usage.completion_tokens, else content chunks (${per(win)})`,
    flows.map(([flow, s]): Series => [e.labels(['flow', flow]), win.cumulative(s.tokens)]),
  );
  const good = flows.filter(([, s]) => s.good);
  if (good.length) {
    e.counter(
      CLIENT_METRIC.streamGoodRequests,
      `Streamed requests within the flow's goodput targets (${per(win)})`,
      good.map(([flow, s]): Series => [e.labels(['flow', flow]), win.cumulative(s.good!)]),
    );
  }
}
