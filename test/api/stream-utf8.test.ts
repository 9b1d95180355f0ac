/**
 * `/stream` items hold at most 1 MB = 1 000 000 bytes of output, counted in UTF-8 (spec §4, §8.3),
 * and are never split inside a character: 2-, 3- and 4-byte characters (surrogate pairs) included.
 */
import { describe, expect, it } from 'vitest';
import { splitItems, utf8Bytes } from '../../src/api/routes/stream.js';
import { harness } from '../helpers/harness.js';

const _MB = 1_000_000;
const bytesOf = (s: string) => Buffer.byteLength(s, 'utf8');

/** Streams a job whose output is `output` (explicit), once completed; returns the items' outputs. */
function streamed(output: unknown): { items: unknown[]; whole: unknown } {
  const h = harness();
  const id = h.run({ sim: { output, durationMs: 10 } }).body.id;
  h.at(10);
  const r = h.req('GET', `/stream/${id}`);
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('COMPLETED');
  return { items: (r.body.stream as { output: unknown }[]).map((i) => i.output), whole: h.status(id).body.output };
}

describe('/stream splits by UTF-8 bytes', () => {
  it('700 000 × "é" (1.4 MB) comes back as 1 000 000 + 400 000 bytes', () => {
    const { items, whole } = streamed('é'.repeat(700_000));
    const parts = items as string[];
    expect(parts.map(bytesOf)).toEqual([1_000_000, 400_000]);
    expect(parts.map((p) => p.length)).toEqual([500_000, 200_000]);
    expect(parts.join('')).toBe(whole);
  });

  it('never splits a 4-byte character (a surrogate pair): "a" + 300 000 emoji', () => {
    const text = `a${'😀'.repeat(300_000)}`;
    const parts = streamed(text).items as string[];
    // 1 + 249 999 × 4 = 999 997 bytes; one more emoji would make 1 000 001.
    expect(parts.map(bytesOf)).toEqual([999_997, 200_004]);
    expect(parts.every((p) => !/[\uD800-\uDBFF]$/.test(p) && !/^[\uDC00-\uDFFF]/.test(p))).toBe(true);
    expect(parts.join('')).toBe(text);
  });

  it('never splits a 3-byte character: "ab" + 400 000 × "€"', () => {
    const text = `ab${'€'.repeat(400_000)}`;
    const parts = streamed(text).items as string[];
    expect(parts.map(bytesOf)).toEqual([999_998, 200_004]);
    expect(parts.join('')).toBe(text);
  });

  it('exactly 1 000 000 bytes of 2-byte characters stay one item; 1 000 002 make two', () => {
    expect(streamed('é'.repeat(500_000)).items).toEqual(['é'.repeat(500_000)]);
    expect((streamed('é'.repeat(500_001)).items as string[]).map(bytesOf)).toEqual([1_000_000, 2]);
  });

  it('a non-string output is measured and split as its JSON text, in bytes', () => {
    const output = { text: 'ü'.repeat(600_000) };
    const { items, whole } = streamed(output);
    const parts = items as string[];
    // `{"text":"` is 9 bytes, then 2-byte characters: 9 + 499 995 × 2 = 999 999 bytes in the first item.
    expect(bytesOf(JSON.stringify(output))).toBe(1_200_011);
    expect(parts.map(bytesOf)).toEqual([999_999, 200_012]);
    expect(JSON.parse(parts.join(''))).toEqual(whole);
  });

  it('a small non-ASCII output stays one item, as it is', () => {
    expect(streamed({ greeting: 'héllo 😀' }).items).toEqual([{ greeting: 'héllo 😀' }]);
  });
});

describe('splitItems and utf8Bytes', () => {
  it('count UTF-8 bytes as Buffer does, lone surrogates as the 3-byte replacement character', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', 'a😀b', '\uD800', '\uDC00x', 'x\uD83D']) expect(utf8Bytes(s)).toBe(bytesOf(s));
  });

  it('every item is within the limit and the items join back to the output', () => {
    const text = 'aé€😀'.repeat(50);
    for (const max of [4, 5, 7, 10, 33]) {
      const parts = splitItems([text], max).map((i) => i.output as string);
      expect(parts.every((p) => bytesOf(p) <= max)).toBe(true);
      expect(parts.join('')).toBe(text);
    }
  });
});
