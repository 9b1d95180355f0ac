/**
 * A shard of a run (RunOptions.shard) on the library level: the shard's result says which shard it
 * is, its thresholds are judged on the shard alone, report.json reads back with its `shard`, a bad
 * `shard` in report.json is refused naming the field, and report.md says what a report covers.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import type { ShardSection } from '../../src/report/run-result.js';

const sc = scenarioSchema.parse({
  name: 'shard-lib',
  durationMs: 10_000,
  seed: 4,
  traffic: [{ name: 'a', arrival: { process: 'poisson', ratePerSec: 3 }, client: { behaviour: 'health' } }],
  thresholds: ['requests{health} >= 20'],
});

describe('a shard of a run', () => {
  test("the shards' sessions add up to the whole run's; each shard is judged on its own requests", async () => {
    const whole = await runScenario(sc);
    const n = whole.flows.a!.sessions;
    expect(whole.shard).toBeUndefined();
    expect(whole.thresholds[0]!.ok).toBe(true);
    const shards = await Promise.all([0, 1].map((index) => runScenario(sc, { shard: { index, count: 2 } })));
    expect(shards.map((s) => s.shard)).toEqual([
      { count: 2, indices: [0] },
      { count: 2, indices: [1] },
    ]);
    expect(shards.map((s) => s.flows.a!.sessions)).toEqual([Math.ceil(n / 2), Math.floor(n / 2)]);
    // About 15 requests each: a shard alone fails the whole run's threshold.
    for (const s of shards) expect(s.thresholds[0]).toMatchObject({ ok: false });
  });

  test('report.json keeps shard and reads it back; report.md names the shard and the start instant', async () => {
    const r = await runScenario(sc, { shard: { index: 1, count: 4, startAtMs: Date.UTC(2026, 0, 2, 3, 4, 5) } });
    const back = parseRunResult(renderJson(r));
    expect(back.shard).toEqual({ count: 4, indices: [1], startAtMs: Date.UTC(2026, 0, 2, 3, 4, 5) });
    expect(renderMarkdown(back)).toContain(
      'This report covers **shard 1 of 4**: arrivals k of each flow with k mod 4 = 1 (of a closed flow: its users i with i mod 4 = 1); time 0 at 2026-01-02T03:04:05.000Z (--start-at).',
    );
  });

  test('report.md of merged shards', async () => {
    const r = await runScenario(sc);
    const md = (shard: ShardSection) => renderMarkdown({ ...r, shard });
    expect(md({ count: 4, indices: [0, 2] })).toContain('This report covers **shards 0, 2 of 4**, merged.');
    expect(md({ count: 4, indices: [0, 1, 2, 3] })).toContain('This report covers **all 4 shards**, merged.');
    expect(md({ count: 1, indices: [0], startAtMs: 0 })).toContain('This report covers the whole run (one shard); time 0 at 1970-01-01T00:00:00.000Z');
  });

  test('a bad shard in report.json is refused, naming the field', async () => {
    const json = JSON.parse(renderJson(await runScenario(sc))) as Record<string, unknown>;
    const parse = (shard: unknown) => () => parseRunResult(JSON.stringify({ ...json, shard }));
    expect(parse([1])).toThrow(/^shard: a JSON array, expected a JSON object/);
    expect(parse({ count: 0, indices: [0] })).toThrow(/^shard\.count: expected a whole number >= 1, got 0/);
    expect(parse({ count: 3, indices: [3] })).toThrow(/^shard\.indices: expected ascending distinct whole numbers from 0 to 2, got \[3\]/);
    expect(parse({ count: 3, indices: [1, 1] })).toThrow(/^shard\.indices/);
    expect(parse({ count: 3, indices: [] })).toThrow(/^shard\.indices/);
    expect(parse({ count: 3, indices: [0], startAtMs: 'soon' })).toThrow(/^shard\.startAtMs: expected epoch milliseconds/);
    expect(parse({ count: 3, indices: [0, 2] })().shard).toEqual({ count: 3, indices: [0, 2] });
  });
});
