/**
 * Stream times at 0.01 ms, from recording to every consumer: chunks 6.2 ms apart give ITL and TPOT
 * 6.2 (not the whole-ms 6), judged so by thresholds whole-run and per window, printed with their
 * fraction in report.md, and counted in metrics.om's and the live /metrics' finer buckets, where
 * 5, 6 and 7 ms fall apart.
 */
import { describe, expect, test } from 'vitest';
import { STREAM_BUCKETS_MS } from '../../src/contract/metric-names.js';
import { FlowStreams } from '../../src/load/record/stream-metrics.js';
import { bucketCounts } from '../../src/report/histogram-buckets.js';
import { decodeWindow, summarize } from '../../src/report/histogram.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import { evaluateThresholds } from '../../src/report/thresholds.js';
import { feedFine, fineRun, ITL_MS, REQUESTS, TOKENS, TTFT_MS } from '../helpers/fine-streams.js';
import { bucketQuantile, histogramPoints, parseOpenMetrics } from '../report/openmetrics-check.js';

const ITLS = REQUESTS * (TOKENS - 1);

describe('FlowStreams at 0.01 ms', () => {
  test('chunk times 0, 6.2, 12.4 … give ITL and TPOT 6.2, not 6; TTFT keeps its half ms; the encodings say scale 100', () => {
    const f = new FlowStreams(10_000, { tpotMs: 6.25 });
    feedFine(f);
    const s = f.stats();
    expect(s.itlMs.count).toBe(ITLS);
    for (const h of [s.itlMs, s.tpotMs]) {
      expect(h.scale).toBe(100);
      expect(h.summary.p50).toBeCloseTo(ITL_MS, 2);
      expect(h.summary.p50).not.toBe(6);
      expect([h.summary.min, h.summary.max]).toEqual([ITL_MS, ITL_MS]);
    }
    expect(s.ttftMs.summary.p50).toBe(TTFT_MS);
    // Tokens/s per request stays whole tokens/s, without a scale.
    expect(s.tokensPerS.scale).toBeUndefined();
    expect(s.good).toBe(REQUESTS);

    const w = f.windows(1);
    expect(w.timeScale).toBe(100);
    expect(summarize(decodeWindow(w.itlMs[0]!), w.timeScale).p50).toBeCloseTo(ITL_MS, 2);
  });
});

describe('a run with 6.2 ms tokens', () => {
  test('thresholds judge the fine value, for the whole run and per window', async () => {
    const r = await fineRun();
    const got = evaluateThresholds(r, [
      'itl_p50_ms < 6.3',
      'itl_p50_ms < 6.1',
      'tpot_p99_ms{flow=chat} <= 6.2',
      'itl_p50_ms < 6.3 every 10s',
      'itl_p50_ms < 6.1 every 10s',
      'ttft_max_ms == 50.5',
    ]);
    expect(got.map((t) => [t.expr, t.value, t.ok])).toEqual([
      ['itl_p50_ms < 6.3', ITL_MS, true],
      ['itl_p50_ms < 6.1', ITL_MS, false],
      ['tpot_p99_ms{flow=chat} <= 6.2', ITL_MS, true],
      ['itl_p50_ms < 6.3 every 10s', ITL_MS, true],
      ['itl_p50_ms < 6.1 every 10s', ITL_MS, false],
      ['ttft_max_ms == 50.5', TTFT_MS, true],
    ]);
  });

  test('report.md prints 6.20 and 50.5; report.html charts 6.2', async () => {
    const r = await fineRun();
    const md = renderMarkdown(r);
    const row = md
      .slice(md.indexOf('## Streams'))
      .split('\n')
      .find((l) => l.startsWith('| chat |'))!;
    expect(row).toContain(`| ${TTFT_MS.toFixed(1)} / `);
    expect(row).toContain('| 6.20 / 6.20 / 6.20 / 6.20 |');
    const html = renderHtml(r);
    expect(html).toContain('Inter-token latency p50 / p95 / p99 by flow');
    expect(html).toContain('{"label":"chat p50","values":[6.2],');
  });

  test('metrics.om: the ITL buckets put 6.2 ms above le=0.006 and within le=0.007; the sum is in seconds', async () => {
    const r = await fineRun();
    const om = renderOpenMetrics(r, Date.UTC(2026, 0, 1));
    // Well-formed OpenMetrics (what promtool backfills), and what the dashboard's histogram_quantile reads from it.
    const points = histogramPoints(parseOpenMetrics(om), 'loadlab_client_itl_seconds', { flow: 'chat' });
    const q = bucketQuantile(0.5, points.at(-1)!.buckets);
    expect([q.lower, q.upper]).toEqual([0.006, 0.007]);
    const last = (le: string) => {
      const lines = om.split('\n').filter((l) => l.startsWith('loadlab_client_itl_seconds_bucket{') && l.includes(`le="${le}"`));
      return Number(lines.at(-1)!.split(' ')[1]);
    };
    expect([last('0.005'), last('0.006'), last('0.007'), last('+Inf')]).toEqual([0, 0, ITLS, ITLS]);
    const sum = om.split('\n').filter((l) => l.startsWith('loadlab_client_itl_seconds_sum{'));
    expect(Number(sum.at(-1)!.split(' ')[1])).toBeCloseTo((ITLS * ITL_MS) / 1000, 6);
    // Response time keeps serve's buckets.
    expect(om).toMatch(/loadlab_client_response_seconds_bucket\{[^}]*le="0\.025"/);
    expect(om).not.toMatch(/loadlab_client_response_seconds_bucket\{[^}]*le="0\.007"/);
  });

  test("the live /metrics' buckets: 5, 6 and 7 ms apart, the sum in ms", async () => {
    const r = await fineRun();
    const { cumulative, sumMs } = bucketCounts(r.flows.chat!.stream!.itlMs, STREAM_BUCKETS_MS);
    const at = (ms: number) => cumulative[STREAM_BUCKETS_MS.indexOf(ms)];
    expect([at(5), at(6), at(7)]).toEqual([0, 0, ITLS]);
    expect(sumMs).toBeCloseTo(ITLS * ITL_MS, 6);
  });
});
