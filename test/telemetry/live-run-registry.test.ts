/**
 * The runner's live registry (telemetry/live-run-registry.ts) as Prometheus reads its text: every
 * series labelled with endpoint and scenario first, counters with `_total`, classic histograms
 * with DURATION_BUCKETS_S (the stream times with STREAM_BUCKETS_S), families without data printing no series, and one scrape showing one
 * moment of the run (the snapshot is read once per scrape, not once per family).
 */
import { describe, expect, test } from 'vitest';
import { CLIENT_METRIC, DURATION_BUCKETS_S, PROCESS_METRIC, STREAM_BUCKETS_MS, STREAM_BUCKETS_S } from '../../src/contract/metric-names.js';
import { FlowStreams } from '../../src/load/record/stream-metrics.js';
import { bucketCounts } from '../../src/report/histogram-buckets.js';
import { feedFine, ITL_MS } from '../helpers/fine-streams.js';
import { liveRunRegistry, type LiveSnapshot } from '../../src/telemetry/live-run-registry.js';
import { parseProm, select, value } from './prom-text.js';

const base = { endpoint: 'ep', scenario: 'sc' };

describe('liveRunRegistry', () => {
  test('labels, counter and histogram spelling, empty families without series', async () => {
    const cumulative = DURATION_BUCKETS_S.map((le) => (le >= 0.1 ? 3 : le >= 0.01 ? 1 : 0));
    const snap: LiveSnapshot = {
      counters: { requests: [{ labels: { operation: 'run' }, value: 7 }] },
      gauges: { runStartTime: [{ labels: {}, value: 1714564800.5 }], runEndTime: [] },
      histograms: { response: [{ labels: { operation: 'run' }, cumulative, count: 4, sumSeconds: 12.5 }] },
      summaries: {},
    };
    const text = await liveRunRegistry(base, () => snap).metrics();
    expect(text).toContain(`# TYPE ${CLIENT_METRIC.requests}_total counter\n${CLIENT_METRIC.requests}_total{endpoint="ep",scenario="sc",operation="run"} 7\n`);
    expect(text).toContain(`${CLIENT_METRIC.responseSeconds}_bucket{endpoint="ep",scenario="sc",operation="run",le="0.005"} 0\n`);
    expect(text).toContain(`${CLIENT_METRIC.responseSeconds}_bucket{endpoint="ep",scenario="sc",operation="run",le="+Inf"} 4\n`);
    const p = parseProm(text);
    expect(select(p, `${CLIENT_METRIC.responseSeconds}_bucket`).map((s) => s.value)).toEqual([...cumulative, 4]);
    expect(value(p, `${CLIENT_METRIC.responseSeconds}_sum`)).toBe(12.5);
    expect(value(p, `${CLIENT_METRIC.responseSeconds}_count`)).toBe(4);
    expect(value(p, CLIENT_METRIC.runStartTime)).toBe(1714564800.5);
    expect(select(p, CLIENT_METRIC.runEndTime)).toEqual([]);
    expect(value(p, PROCESS_METRIC.residentMemory)).toBeGreaterThan(0);
    expect(value(p, PROCESS_METRIC.heapUsed)).toBeGreaterThan(0);
    for (const s of p.samples.filter((x) => x.name.startsWith(CLIENT_METRIC.requests.split('_')[0]!)))
      expect(Object.keys(s.labels).slice(0, 2)).toEqual(['endpoint', 'scenario']);
  });

  test('the stream times in their finer buckets: 6.2 ms token gaps above le=0.006, within le=0.007', async () => {
    const f = new FlowStreams(10_000, undefined);
    feedFine(f);
    const itl = f.stats().itlMs;
    const { cumulative, sumMs } = bucketCounts(itl, STREAM_BUCKETS_MS);
    const snap: LiveSnapshot = {
      counters: {},
      gauges: {},
      histograms: { itl: [{ labels: { flow: 'chat' }, cumulative, count: itl.count, sumSeconds: sumMs / 1000 }] },
      summaries: {},
    };
    const p = parseProm(await liveRunRegistry(base, () => snap).metrics());
    const le = (b: string) => select(p, `${CLIENT_METRIC.itlSeconds}_bucket`).find((x) => x.labels.le === b)?.value;
    expect(select(p, `${CLIENT_METRIC.itlSeconds}_bucket`).map((x) => x.labels.le)).toEqual([...STREAM_BUCKETS_S.map(String), '+Inf']);
    expect([le('0.005'), le('0.006'), le('0.007'), le('+Inf')]).toEqual([0, 0, itl.count, itl.count]);
    expect(value(p, `${CLIENT_METRIC.itlSeconds}_sum`)).toBeCloseTo((itl.count * ITL_MS) / 1000, 9);
  });

  test('one scrape is one moment: every family from the same read; the next scrape reads again', async () => {
    let reads = 0;
    const registry = liveRunRegistry(base, () => {
      reads++;
      return {
        counters: { requests: [{ labels: { operation: 'run' }, value: reads }], responses2xx: [{ labels: {}, value: reads }] },
        gauges: { queueJobsMax: [{ labels: {}, value: reads }] },
        histograms: {},
        summaries: {},
      };
    });
    for (const expected of [1, 2]) {
      const p = parseProm(await registry.metrics());
      expect([value(p, `${CLIENT_METRIC.requests}_total`), value(p, `${CLIENT_METRIC.responses2xx}_total`), value(p, CLIENT_METRIC.queueJobsMax)]).toEqual([
        expected,
        expected,
        expected,
      ]);
    }
  });
});
