/**
 * serve's per-job histograms are counted by BatchedHistogram, not prom-client's Histogram: what
 * Prometheus scrapes must not change. The same observations give the same exposition text.
 */
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BatchedHistogram } from '../../src/telemetry/batched-histogram.js';
import { DURATION_BUCKETS_S } from '../../src/contract/metric-names.js';

const labels = (endpoint: string, status: string) => ({ endpoint, status });

describe('BatchedHistogram', () => {
  it('scrapes as the prom-client Histogram given the same observations', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const h = new Histogram({
      name: 'x_seconds',
      help: 'Some "help"\\n',
      labelNames: ['endpoint', 'status'],
      buckets: DURATION_BUCKETS_S,
      registers: [theirs],
    });
    const b = new BatchedHistogram<'endpoint' | 'status'>('x_seconds', 'Some "help"\\n', DURATION_BUCKETS_S, ours);
    // Values on, between and beyond the bounds, in several series (one with an odd label value).
    const values = [0, 0.005, 0.0051, 0.5, 1, 2.5, 7, 1800, 1800.5, 99999, 0.3, 0.3];
    const series = [
      ['ep', 'COMPLETED'],
      ['ep', 'FAILED'],
      ['other-ep', 'say "hi"\\n'],
    ] as const;
    values.forEach((v, i) => {
      const [endpoint, status] = series[i % series.length]!;
      h.observe({ endpoint, status }, v);
      b.observe(endpoint, status, labels, v);
    });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('scrapes nothing but its help and type before the first observation, and again after a reset', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const h = new Histogram({ name: 'y_seconds', help: 'h', labelNames: ['endpoint'], buckets: [1, 2], registers: [theirs] });
    const b = new BatchedHistogram<'endpoint'>('y_seconds', 'h', [1, 2], ours);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    h.observe({ endpoint: 'e' }, 1.5);
    b.observe('e', 0, (endpoint) => ({ endpoint }), 1.5);
    h.reset();
    b.reset();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
