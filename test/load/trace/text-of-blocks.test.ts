/**
 * contract/prompt-tokens.ts textOfBlocks: a Mooncake row's prompt from its 512-token block ids —
 * exactly its length by the 4-characters-a-token rule, equal ids giving equal text (so a shared
 * prefix of ids is a shared prefix of the string), different ids different text in every 64-character piece.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { textOfBlocks, tokensOfText } from '../../../src/contract/prompt-tokens.js';

const pieces = (s: string) => Array.from({ length: Math.ceil(s.length / 64) }, (_, i) => s.slice(i * 64, i * 64 + 64));

describe('textOfBlocks', () => {
  it('exactly inputLength tokens (4 × inputLength characters), whatever the lengths', () => {
    for (const n of [0, 1, 15, 16, 511, 512, 513, 1500, 6758]) {
      const t = textOfBlocks([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7], n);
      expect(t.length).toBe(4 * n);
      expect(tokensOfText(t)).toBe(n);
    }
  });

  it('prompts that share their first block ids share that text; the first different block differs in its first 64 characters', () => {
    const a = textOfBlocks([0, 1, 2], 1500);
    const b = textOfBlocks([0, 1, 5], 1400);
    expect(a.slice(0, 2 * 2048)).toBe(b.slice(0, 2 * 2048));
    expect(a.slice(2 * 2048, 2 * 2048 + 64)).not.toBe(b.slice(2 * 2048, 2 * 2048 + 64));
    // A block is the same text wherever it stands.
    expect(textOfBlocks([7], 512)).toBe(textOfBlocks([9, 7], 1024).slice(2048));
  });

  it('no two 64-character pieces of different blocks, or of one block, are equal', () => {
    const all = pieces(textOfBlocks([0, 1, 2, 35, 36, 1295, 1296, 2 ** 40], 8 * 512));
    expect(all).toHaveLength(8 * 32);
    expect(new Set(all).size).toBe(all.length);
  });

  it('a prompt longer than its blocks goes on with " the"; a block cut where the prompt ends', () => {
    const t = textOfBlocks([4], 520);
    expect(t.slice(2048)).toBe(' the'.repeat(8));
    expect(textOfBlocks([4, 5], 600).slice(0, 2048)).toBe(t.slice(0, 2048));
  });

  it('the Mooncake conversation trace: its first rows share block 0, so their prompts share its 2048 characters', () => {
    const rows = readFileSync('scenarios/traces/mooncake_fast25_conversation.jsonl', 'utf8')
      .split('\n', 3)
      .map((l) => JSON.parse(l) as { input_length: number; hash_ids: number[] });
    const [a, b] = rows.map((r) => textOfBlocks(r.hash_ids, r.input_length));
    expect(rows[0]!.hash_ids[0]).toBe(rows[1]!.hash_ids[0]);
    expect(a!.slice(0, 2048)).toBe(b!.slice(0, 2048));
    expect(a!.slice(2048, 2112)).not.toBe(b!.slice(2048, 2112));
    expect(tokensOfText(a!)).toBe(rows[0]!.input_length);
  });
});
