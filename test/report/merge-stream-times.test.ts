/**
 * mergeRuns of streaming runs: stream times stay at 0.01 ms through a merge (whole run, per window,
 * thresholds), and a shard from an older report, whose stream times are whole ms, joins a newer one
 * at 0.01 ms; two older ones stay whole ms.
 */
import { describe, expect, test } from 'vitest';
import { decodeWindow, summarize } from '../../src/report/histogram.js';
import { mergeRuns } from '../../src/report/merge/merge-runs.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';
import { asWholeMsReport, fineRun, ITL_MS } from '../helpers/fine-streams.js';

const merged = (...rs: RunResult[]) => parseRunResult(renderJson(mergeRuns(rs.map((result, i) => ({ name: `shard-${i}`, result })))));
const bytes = (...rs: RunResult[]) => renderJson(merged(...rs));

describe('stream times at 0.01 ms', () => {
  const exprs = ['itl_p50_ms < 6.3', 'itl_p50_ms < 6.1', 'itl_p50_ms < 6.3 every 10s'];
  const shard = (index: number) => fineRun(exprs, { index, count: 2 });

  test('two runs with 6.2 ms tokens merge to ITL 6.2, whole-run and per window; thresholds judge it', async () => {
    const [a, b] = await Promise.all([shard(0), shard(1)]);
    const m = merged(a, b);
    const s = m.flows.chat!.stream!;
    expect(s.itlMs).toMatchObject({ count: 2 * a.flows.chat!.stream!.itlMs.count, scale: 100 });
    expect(s.itlMs.summary.p50).toBeCloseTo(ITL_MS, 2);
    expect(s.tpotMs.summary.p50).toBeCloseTo(ITL_MS, 2);
    const w = m.windows!.streams!.chat!;
    expect(w.timeScale).toBe(100);
    expect(summarize(decodeWindow(w.itlMs.find(Boolean)!), w.timeScale).p50).toBeCloseTo(ITL_MS, 2);
    expect(m.thresholds.map((t) => [t.expr, t.value, t.ok])).toEqual([
      [exprs[0], ITL_MS, true],
      [exprs[1], ITL_MS, false],
      [exprs[2], ITL_MS, true],
    ]);
  });

  test('an older whole-ms shard joins a 0.01 ms one at 0.01 ms; two older ones stay whole ms', async () => {
    const [a, b] = await Promise.all([shard(0), shard(1)]);
    const old = asWholeMsReport(b);
    const mixed = merged(a, old);
    const s = mixed.flows.chat!.stream!;
    expect(s.itlMs.scale).toBe(100);
    expect(s.itlMs.count).toBe(2 * a.flows.chat!.stream!.itlMs.count);
    // Half the gaps at 6.2 ms, half at the older shard's 6 ms: nothing in between, nothing lost.
    expect([s.itlMs.summary.min, s.itlMs.summary.max]).toEqual([6, ITL_MS]);
    expect(mixed.windows!.streams!.chat!.timeScale).toBe(100);
    expect(bytes(old, a)).toBe(bytes(a, old));

    const both = merged(asWholeMsReport(a), old);
    expect(both.flows.chat!.stream!.itlMs.scale).toBeUndefined();
    expect(both.flows.chat!.stream!.itlMs.summary.p50).toBe(6);
    expect(both.windows!.streams!.chat!.timeScale).toBeUndefined();
  });
});
