/**
 * A token trace replayed (`replay` with `format`), through the arrival generator a run pulls: each
 * format's times (made ms from the trace's first row) and token counts; BurstGPT's failed rows
 * (an answer of 0 tokens) skipped; the window, speed and loop; the expected count and peak rate
 * the plan reads; a sharded flow's shards split the requests, each row on exactly one shard.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { arrivalGenerator, arrivalSchema, expectedArrivals, peakArrivalsPerSec, type OpenArrivalSpec } from '../../../src/load/arrivals/registry.js';
import { shardArrivals } from '../../../src/load/arrivals/shard.js';
import type { ArrivalGenerator } from '../../../src/load/arrivals/types.js';
import { RandomSource } from '../../../src/lib/random.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-trace-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spec(name: string, text: string, arrival: Record<string, unknown>): OpenArrivalSpec {
  const file = join(dir, name);
  writeFileSync(file, text);
  return arrivalSchema.parse({ process: 'replay', file, ...arrival }) as OpenArrivalSpec;
}

const ctx = () => ({ rng: new RandomSource(1).stream('a'), durationMs: 1e9 });

/** Every arrival as [ms, prompt tokens, answer tokens, hash ids?], up to `max`. */
function drain(g: ArrivalGenerator, max = 1000): unknown[][] {
  const out: unknown[][] = [];
  for (let t = g.next(); t !== undefined && out.length < max; t = g.next()) {
    const r = g.request!()!;
    out.push(r.hashIds ? [t, r.promptTokens, r.outputTokens, r.hashIds] : [t, r.promptTokens, r.outputTokens]);
  }
  return out;
}

const AZURE =
  'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,396,109\n2023-11-16 18:16:46.6805900,10,1\n';
const BURST =
  'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n5,ChatGPT,472,18,490,Conversation log\n5.5,"GPT-4, big",1000,0,1000,Conversation log\n7.25,GPT-4,20,300,320,API log\n';

describe('formats', () => {
  it('azure: wall-clock times (7 fraction digits, UTC) as ms from the first row', () => {
    const rows = drain(arrivalGenerator(spec('a.csv', AZURE, { format: 'azure' }), ctx()));
    expect(rows.map((r) => [Math.round((r[0] as number) * 1000) / 1000, r[1], r[2]])).toEqual([
      [0, 374, 44],
      [4314.579, 396, 109],
      [60_000, 10, 1],
    ]);
  });

  it('burstgpt: seconds from the first row, extra columns (a quoted comma too) ignored, the failed row (Response tokens 0) skipped', () => {
    expect(drain(arrivalGenerator(spec('b.csv', BURST, { format: 'burstgpt' }), ctx()))).toEqual([
      [0, 472, 18],
      [2250, 20, 300],
    ]);
  });

  it('mooncake: JSON lines with their block ids', () => {
    const text =
      '{"timestamp": 100, "input_length": 600, "output_length": 5, "hash_ids": [0, 1]}\n\n{"timestamp": 350, "input_length": 10, "output_length": 2, "hash_ids": [0]}\n';
    expect(drain(arrivalGenerator(spec('m.jsonl', text, { format: 'mooncake' }), ctx()))).toEqual([
      [0, 600, 5, [0, 1]],
      [250, 10, 2, [0]],
    ]);
  });

  it('csv: the columns named, times in s (atS) or ms (atMs, the default names)', () => {
    const s = spec('c.csv', '# a comment\nout,t,in\n3,10.5,7\n4,11,8\n', { format: 'csv', columns: { atS: 't', promptTokens: 'in', outputTokens: 'out' } });
    expect(drain(arrivalGenerator(s, ctx()))).toEqual([
      [0, 7, 3],
      [500, 8, 4],
    ]);
    expect(drain(arrivalGenerator(spec('d.csv', 'atMs,promptTokens,outputTokens\r\n40,1,2\r\n45,0,9', { format: 'csv' }), ctx()))).toEqual([
      [0, 1, 2],
      [5, 0, 9],
    ]);
  });
});

describe('window, speed and loop', () => {
  // One request every 100 ms for 1 s: t = 0, 100, … 900.
  const TEN = `atMs,promptTokens,outputTokens\n${Array.from({ length: 10 }, (_, i) => `${1000 + i * 100},${i + 1},1`).join('\n')}\n`;

  it('[fromMs, toMs) of the trace clock, shifted to 0 and divided by speed', () => {
    const s = spec('w.csv', TEN, { format: 'csv', fromMs: 250, toMs: 600, speed: 2 });
    expect(drain(arrivalGenerator(s, ctx()))).toEqual([
      [25, 4, 1],
      [75, 5, 1],
      [125, 6, 1],
    ]);
  });

  it('a looped window lasts toMs − fromMs; without toMs, to the last row plus one mean gap', () => {
    const windowed = drain(arrivalGenerator(spec('l.csv', TEN, { format: 'csv', fromMs: 250, toMs: 600, loop: true }), ctx()), 6);
    expect(windowed.map((r) => r[0])).toEqual([50, 150, 250, 400, 500, 600]);
    const whole = drain(arrivalGenerator(spec('l2.csv', TEN, { format: 'csv', loop: true }), ctx()), 12);
    expect(whole.map((r) => r[0]).slice(9)).toEqual([900, 1000, 1100]);
    expect(whole[10]![1]).toBe(1);
  });

  it('expected arrivals and the peak per second, from the file', () => {
    const s = spec('e.csv', TEN, { format: 'csv', loop: true });
    expect(expectedArrivals(s, 2500, 0)).toBe(25);
    expect(expectedArrivals(spec('e2.csv', TEN, { format: 'csv' }), 450, 0)).toBe(5);
    expect(peakArrivalsPerSec(s, 10_000, 0)).toBe(10);
    expect(peakArrivalsPerSec(spec('e3.csv', TEN, { format: 'csv', speed: 0.5 }), 10_000, 0)).toBe(5);
  });
});

describe('shards', () => {
  it('N shards of a token trace: disjoint, and together every request once, with its own token counts', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `${i * 37},${i},${i + 1}`);
    const s = spec('s.csv', `atMs,promptTokens,outputTokens\n${rows.join('\n')}\n`, { format: 'csv' });
    const all = drain(arrivalGenerator(s, ctx()));
    for (const n of [2, 3, 7]) {
      const shards = Array.from({ length: n }, (_, index) => drain(shardArrivals(arrivalGenerator(s, ctx()), { index, count: n })));
      expect(shards.flat().sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(all);
      expect(shards[1]![0]).toEqual(all[1]);
    }
  });
});
