/** The allocation-saving parts of the run loop give the same values as the plain way. */
import { describe, expect, test } from 'vitest';
import { compileTemplate } from '../../src/load/behaviours/template.js';
import { MsHistogram } from '../../src/load/record/ms-histogram.js';
import { encode, HIGHEST_MS, newHistogram, record } from '../../src/report/histogram.js';

describe('payload templates', () => {
  test('{{seq}} per session, {{flow}} once; parts without {{seq}} are shared, not copied', () => {
    const pad = 'x'.repeat(1000);
    const tpl = { input: { prompt: 'job {{seq}} of {{flow}}', pad, list: ['{{seq}}', 2], fixed: { a: 1 } }, policy: { ttl: 5 } };
    const build = compileTemplate(tpl, 'f1');
    const a = build(7);
    const b = build(8);
    expect(a).toEqual({ input: { prompt: 'job 7 of f1', pad, list: ['7', 2], fixed: { a: 1 } }, policy: { ttl: 5 } });
    expect(b.input.prompt).toBe('job 8 of f1');
    expect(a.policy).toBe(b.policy);
    expect(a.input.fixed).toBe(b.input.fixed);
    expect(a.input).not.toBe(b.input);
  });
  test('a template without {{seq}} gives the same object every time', () => {
    const build = compileTemplate({ input: { prompt: 'hi {{flow}}' } }, 'g');
    expect(build(1)).toBe(build(2));
    expect(build(1)).toEqual({ input: { prompt: 'hi g' } });
  });
});

describe('MsHistogram', () => {
  test('encodes exactly like recording every sample into HDR (small, fractional, negative, huge values)', () => {
    const values = [0, -3, 0.4, 0.6, 1, 17, 999.5, 65_535, 65_536, 300_000, 1e12];
    for (let i = 0; i < 5000; i++) values.push((i * 7919) % 90_000);
    const fast = new MsHistogram();
    const direct = newHistogram();
    for (const v of values) {
      fast.record(v);
      record(direct, v);
    }
    expect(encode(fast.hdr())).toEqual(encode(direct));
  });

  test('at scale 100 (stream times): hundredths of a ms, past 2^32 too, as recording into HDR at that scale', () => {
    const values = [0, 6.2, 6.2049, 6.2051, 20.47, 20.49, 50.5, 42_949.67296, 3_600_000.01, 1e12];
    for (let i = 0; i < 5000; i++) values.push(((i * 7919) % 90_000) / 100);
    const fast = new MsHistogram(100);
    const direct = newHistogram(100);
    for (const v of values) {
      fast.record(v);
      record(direct, v, 100);
    }
    const e = encode(fast.hdr(), 100);
    expect(e).toEqual(encode(direct, 100));
    expect(e.scale).toBe(100);
    expect(e.summary.max).toBe(HIGHEST_MS);
  });
});
