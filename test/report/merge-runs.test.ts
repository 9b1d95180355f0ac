/** mergeRuns: shards of one run merge into one RunResult — exactly for counters and histograms, the same bytes for any order or grouping. */
import { beforeAll, describe, expect, test } from 'vitest';
import { decode, encode, newHistogram, record, summarize } from '../../src/report/histogram.js';
import { MergeError, mergeRuns, type MergeInput } from '../../src/report/merge/merge-runs.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import type { RunResult } from '../../src/report/run-result.js';
import { RandomSource } from '../../src/lib/random.js';
import { shardOf } from '../../src/report/merge/shard-info.js';
import { shardResult, T0 } from './merge-shards.js';

let shards: RunResult[];
const named = (rs: readonly RunResult[]): MergeInput[] => rs.map((result) => ({ name: `shard-${shardOf(result)!.indices.join('+')}`, result }));
/** A merge as written to report.json and read back (what a later merge of it reads). */
const merged = (...rs: RunResult[]) => parseRunResult(renderJson(mergeRuns(named(rs))));
const bytes = (...rs: RunResult[]) => renderJson(merged(...rs));

beforeAll(async () => {
  // Shard 3 starts 12 s after the others: one 10 s window later on the merged axis; shard 2 3 s later: the same window.
  shards = await Promise.all([
    shardResult(0, 4, { rate: 3 }),
    shardResult(1, 4, { rate: 5, withB: true }),
    shardResult(2, 4, { rate: 2, startOffsetMs: 3_000 }),
    shardResult(3, 4, { rate: 4, withB: true, startOffsetMs: 12_000 }),
  ]);
});

describe('mergeRuns', () => {
  test('any order and any grouping of the inputs gives the same bytes', () => {
    const [a, b, c, d] = shards as [RunResult, RunResult, RunResult, RunResult];
    const flat = bytes(a, b, c, d);
    for (const order of [
      [d, c, b, a],
      [c, a, d, b],
      [b, d, a, c],
    ])
      expect(bytes(...order)).toBe(flat);
    expect(bytes(merged(a, b), c, d)).toBe(flat);
    expect(bytes(merged(merged(a, b), c), d)).toBe(flat);
    expect(bytes(a, merged(b, merged(c, d)))).toBe(flat);
    expect(bytes(merged(d, b), merged(c, a))).toBe(flat);
    // Merging a complete merge again changes nothing.
    expect(bytes(merged(a, b, c, d))).toBe(flat);
  });

  test("counters are the sums of the shards'; the union of shard indices is recorded", () => {
    const m = merged(...shards);
    const sum = (f: (r: RunResult) => number) => shards.reduce((n, r) => n + f(r), 0);
    expect(m.operations.run!.requests).toBe(sum((r) => r.operations.run!.requests));
    expect(m.operations.status!.byStatus['200']).toBe(sum((r) => r.operations.status!.byStatus['200'] ?? 0));
    expect(m.operations.runsync!.requests).toBe(sum((r) => r.operations.runsync?.requests ?? 0));
    expect(m.flows.a!.sessions).toBe(sum((r) => r.flows.a!.sessions));
    expect(m.flows.b!.sessions).toBe(sum((r) => r.flows.b?.sessions ?? 0));
    expect(m.jobs.accepted).toBe(sum((r) => r.jobs.accepted));
    expect(m.jobs.outcomes!.COMPLETED).toBe(sum((r) => r.jobs.outcomes!.COMPLETED ?? 0));
    expect(m.arrivals.intended).toBe(sum((r) => r.arrivals.intended));
    expect(m.operations.run!.responseMs.count).toBe(sum((r) => r.operations.run!.responseMs.count));
    expect(m.shard).toEqual({ count: 4, indices: [0, 1, 2, 3] });
    expect(m.wallClock).toEqual({ startedAt: new Date(T0).toISOString(), wallMs: 103, metricsStartMs: T0 });
    expect(m.timeline.requests.reduce((x, y) => x + y, 0)).toBe(sum((r) => r.timeline.requests.reduce((x, y) => x + y, 0)));
  });

  test("what shards' webhook receivers turned away (runs over HTTP) is summed; absent from every shard, absent merged", () => {
    const [a, b, c, d] = shards as [RunResult, RunResult, RunResult, RunResult];
    const turnedAway = (r: RunResult, refused: number, malformed: number): RunResult => ({ ...r, webhooks: { ...r.webhooks, refused, malformed } });
    expect(merged(turnedAway(a, 2, 1), turnedAway(b, 3, 0), c, d).webhooks).toMatchObject({ refused: 5, malformed: 1 });
    expect(Object.keys(merged(a, b, c, d).webhooks)).not.toContain('refused');
  });

  test('windows are aligned on wall time: a shard that started 12 s later counts one 10 s window later', () => {
    const m = merged(...shards);
    const shifts = [0, 0, 0, 1];
    const run = m.windows!.requests!.run!;
    expect(run.length).toBe(Math.max(...shards.map((r, i) => r.windows!.requests!.run!.length + shifts[i]!)));
    run.forEach((n, w) => expect(n).toBe(shards.reduce((s, r, i) => s + (r.windows!.requests!.run![w - shifts[i]!] ?? 0), 0)));
    expect(m.elapsedMs).toBe(Math.max(...shards.map((r, i) => r.elapsedMs + shifts[i]! * 10_000)));
    // Per-window histograms hold every sample once.
    const perWindow = m.windows!.responseMs.run!.reduce((n, e) => n + (e ? decode({ count: 1, summary: summarize(newHistogram()), hdr: e }).totalCount : 0), 0);
    expect(perWindow).toBe(m.operations.run!.responseMs.count);
  });

  test('shards with different --start-at instants, or none: the same bytes in any grouping, time 0 the earliest', async () => {
    const rs = await Promise.all([
      shardResult(0, 4, { rate: 2, startAtMs: T0 + 60_000 }),
      shardResult(1, 4, { rate: 2, startAtMs: T0 + 60_000 }),
      shardResult(2, 4, { rate: 2, startAtMs: T0 + 75_000 }),
      shardResult(3, 4, { rate: 2, startOffsetMs: 55_000 }),
    ]);
    const [a, b, c, d] = rs as [RunResult, RunResult, RunResult, RunResult];
    const flat = bytes(a, b, c, d);
    expect(bytes(merged(a, b), merged(c, d))).toBe(flat);
    expect(bytes(merged(merged(a, b), c), d)).toBe(flat);
    expect(bytes(d, merged(c, merged(b, a)))).toBe(flat);
    const m = merged(a, b, c, d);
    expect(m.shard).toEqual({ count: 4, indices: [0, 1, 2, 3] });
    expect(m.wallClock).toMatchObject({ startedAt: new Date(T0 + 55_000).toISOString(), metricsStartMs: T0 + 55_000 });
    // Windows: 55 s → grid 6 (rounded), 60 s → 6, 75 s → 8 (7.5 rounds up).
    const shifts = [0, 0, 2, 0];
    const run = m.windows!.requests!.run!;
    expect(run.length).toBe(c.windows!.requests!.run!.length + 2);
    run.forEach((n, w) => expect(n).toBe(rs.reduce((s, r, i) => s + (r.windows!.requests!.run![w - shifts[i]!] ?? 0), 0)));
    // Two shards with one --start-at keep it.
    expect(merged(a, b).shard).toEqual({ count: 4, indices: [0, 1], startAtMs: T0 + 60_000 });
  });

  test('with a common --start-at instant nothing moves, whatever the start times say', async () => {
    const at = T0 + 60_000;
    const [a, b] = await Promise.all([shardResult(0, 2, { rate: 3, startAtMs: at }), shardResult(1, 2, { rate: 3, startAtMs: at, startOffsetMs: 25_000 })]);
    const m = merged(a!, b!);
    expect(m.elapsedMs).toBe(Math.max(a!.elapsedMs, b!.elapsedMs));
    expect(m.windows!.requests!.run).toEqual(a!.windows!.requests!.run!.map((n, w) => n + (b!.windows!.requests!.run![w] ?? 0)));
    expect(m.wallClock).toEqual({ startedAt: new Date(T0).toISOString(), wallMs: 101, metricsStartMs: at });
  });

  test('merged percentiles are those of one histogram of all raw samples, within HDR precision', () => {
    const rng = new RandomSource('merge-percentiles').stream('ms');
    const raw: number[][] = shards.map((_, i) => Array.from({ length: 2000 + 500 * i }, () => Math.round(20 + (i + 1) * 40 * -Math.log(1 - rng.next()))));
    const withSamples = shards.map((r, i) => {
      const h = newHistogram();
      for (const v of raw[i]!) record(h, v);
      return parseRunResult(renderJson({ ...r, operations: { ...r.operations, run: { ...r.operations.run!, responseMs: encode(h) } } }));
    });
    const all = raw.flat();
    const union = newHistogram();
    for (const v of all) record(union, v);
    const got = merged(...withSamples).operations.run!.responseMs;
    expect(got.count).toBe(all.length);
    expect(got.summary).toEqual(summarize(union));
    // And against the exact percentiles of the raw samples: HDR keeps 3 significant digits.
    const sorted = [...all].sort((x, y) => x - y);
    for (const [p, v] of [
      [50, got.summary.p50],
      [90, got.summary.p90],
      [99, got.summary.p99],
    ] as const) {
      const exact = sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
      expect(Math.abs(v - exact)).toBeLessThanOrEqual(Math.max(1, exact * 1e-3));
    }
    expect(got.summary.max).toBe(sorted[sorted.length - 1]);
  });

  test('thresholds are judged on the merged run: a count every shard passes fails on the sum', async () => {
    const thresholds = ['requests{run} < 150', 'p99_ms < 60000'];
    const rs = await Promise.all([0, 1, 2].map((i) => shardResult(i, 3, { rate: 3, thresholds })));
    for (const r of rs) expect(r.thresholds.map((t) => t.ok)).toEqual([true, true]);
    const m = merged(...rs);
    expect(m.thresholds[0]).toMatchObject({ expr: 'requests{run} < 150', ok: false, value: rs.reduce((n, r) => n + r.operations.run!.requests, 0) });
    expect(m.thresholds[1]!.ok).toBe(true);
  });

  test("the endpoint over time is one shard's view of the one endpoint, never a sum", () => {
    const m = merged(...shards);
    const e = m.windows!.endpoint!;
    expect(e.queueLength.slice(0, 3)).toEqual(shards[0]!.windows!.endpoint!.queueLength.slice(0, 3));
    expect(e.workers.running.slice(0, 3)).toEqual(shards[0]!.windows!.endpoint!.workers.running.slice(0, 3));
    expect(m.headroom.peakRunningWorkers).toBe(Math.max(...shards.map((r) => r.headroom.peakRunningWorkers ?? -1)));
    expect(m.headroom.operations.find((o) => o.operation === 'run')!.peakPer10s).toBeGreaterThanOrEqual(Math.max(...m.windows!.requests!.run!));
  });
});

describe('inputs that are not shards of one run', () => {
  const expectError = (f: () => unknown, field: string, ...names: string[]) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(MergeError);
      expect((e as MergeError).field).toBe(field);
      for (const n of names) expect((e as Error).message).toContain(n);
      return;
    }
    throw new Error('merged');
  };
  test('another seed, scenario or shard count names both inputs and the field', () => {
    const [a, b] = shards as [RunResult, RunResult];
    expectError(
      () =>
        mergeRuns([
          { name: 'dir-a', result: a },
          { name: 'dir-b', result: { ...b, scenario: { ...b.scenario, seed: 8 } } },
        ]),
      'scenario.seed',
      'dir-a',
      'dir-b',
    );
    expectError(
      () =>
        mergeRuns([
          { name: 'dir-a', result: a },
          { name: 'dir-b', result: { ...b, scenario: { ...b.scenario, name: 'other' } } },
        ]),
      'scenario.name',
      'dir-a',
      'dir-b',
    );
    expectError(
      () =>
        mergeRuns([
          { name: 'dir-a', result: a },
          { name: 'dir-b', result: { ...b, shard: { count: 5, indices: [1] } } as RunResult },
        ]),
      'shard.count',
      'dir-a',
      'dir-b',
    );
  });
  test('a shard given twice, a whole run, a shard index out of range', () => {
    const [a] = shards as [RunResult];
    expectError(
      () =>
        mergeRuns([
          { name: 'x', result: a },
          { name: 'y', result: a },
        ]),
      'shard.indices',
      'x',
      'y',
    );
    const { shard: _, ...whole } = a as RunResult & { shard: unknown };
    expectError(
      () =>
        mergeRuns([
          { name: 'x', result: a },
          { name: 'whole', result: whole as RunResult },
        ]),
      'shard',
      'whole',
    );
    expectError(() => mergeRuns([{ name: 'bad', result: { ...a, shard: { count: 4, indices: [4] } } as RunResult }]), 'shard.indices', 'bad');
  });
});

describe("the endpoint as one shard read it (its /health sampling and calibrate's observations)", () => {
  const observed = (atMs: number) => ({
    executionMs: { count: 2, samples: [100, 120] },
    workers: { columns: ['firstStartMs', 'firstDelayMs', 'lastEndMs', 'jobs'], rows: [[atMs + 5, 5, atMs + 900, 3]] },
    health: { columns: ['atMs', 'inQueue', 'inProgress', 'running'], rows: [[atMs, 1, 2, 2]] },
    streams: { count: 1, columns: ['sentMs', 'firstMs'], rows: [[atMs + 1, 40]] },
  });
  const sampling = (everyMs: number) => ({ everyMs, requests: 9, answered: 7, errors: 2, failed: { 502: 1, reset: 1 } });
  const withView = (r: RunResult, everyMs: number, atMs: number): RunResult => ({ ...r, healthSampling: sampling(everyMs), observed: observed(atMs) });

  test('the first shard by index that read /health gives both, whatever the grouping; never a sum', () => {
    const [a, b, c, d] = shards as [RunResult, RunResult, RunResult, RunResult];
    const [b2, d2] = [withView(b, 200, 300), withView(d, 500, 700)];
    const m = merged(a, b2, c, d2);
    expect(m.healthSampling).toEqual(sampling(200));
    expect(m.observed).toEqual(observed(300));
    expect(bytes(d2, merged(c, b2), a)).toBe(bytes(a, b2, c, d2));
  });

  test("its times move onto the merged axis with that shard's windows (shard 3 starts one window late)", () => {
    const [a, b, c, d] = shards as [RunResult, RunResult, RunResult, RunResult];
    const m = merged(a, b, c, withView(d, 500, 700));
    expect(m.healthSampling).toEqual(sampling(500));
    expect(m.observed).toEqual({
      executionMs: { count: 2, samples: [100, 120] },
      workers: { columns: ['firstStartMs', 'firstDelayMs', 'lastEndMs', 'jobs'], rows: [[10_705, 5, 11_600, 3]] },
      health: { columns: ['atMs', 'inQueue', 'inProgress', 'running'], rows: [[10_700, 1, 2, 2]] },
      streams: { count: 1, columns: ['sentMs', 'firstMs'], rows: [[10_701, 40]] },
    });
    expect(bytes(merged(a, b), merged(c, withView(d, 500, 700)))).toBe(bytes(a, b, c, withView(d, 500, 700)));
    // No shard read /health or kept observations: neither in the merge.
    expect([merged(a, b).healthSampling, merged(a, b).observed]).toEqual([undefined, undefined]);
  });
});
