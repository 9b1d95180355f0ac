/** Spec §4 / §8.3 over real HTTP: a `/stream` item holds at most 1 MB = 1 000 000 bytes of UTF-8. */
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../server/serve-helper.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('/stream item size over HTTP', () => {
  it('an output of 700 000 × "é" (1.4 MB) comes back as two items of 1 000 000 and 400 000 bytes', async () => {
    t = await serve();
    const output = 'é'.repeat(700_000);
    const id = (await t.run({ sim: { output, durationMs: 100 } })).body.id;
    await t.advance(100);
    const r = await t.call('GET', `/stream/${id}`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('COMPLETED');
    const parts = r.body.stream.map((i: { output: string }) => i.output) as string[];
    expect(parts.map((p) => Buffer.byteLength(p, 'utf8'))).toEqual([1_000_000, 400_000]);
    expect(parts.join('')).toBe(output);
  });

  it('emoji are never cut: "a" + 300 000 × "😀" → 999 997 + 200 004 bytes', async () => {
    t = await serve();
    const output = `a${'😀'.repeat(300_000)}`;
    const id = (await t.run({ sim: { output, durationMs: 100 } })).body.id;
    await t.advance(100);
    const r = await t.call('GET', `/stream/${id}`);
    const parts = r.body.stream.map((i: { output: string }) => i.output) as string[];
    expect(parts.map((p) => Buffer.byteLength(p, 'utf8'))).toEqual([999_997, 200_004]);
    // No replacement character: each item is whole UTF-8 on the wire.
    expect(r.text.includes('\uFFFD')).toBe(false);
    expect(parts.join('')).toBe(output);
  });
});
