/**
 * A prompt's KV cache blocks by content (contract/prompt-blocks.ts): full 64-character blocks of
 * the prompt's text, each id standing for its text and all the text before it.
 */
import { describe, expect, it } from 'vitest';
import { PROMPT_BLOCK_CHARS, promptBlocksOf, textBlocks } from '../../src/contract/prompt-blocks.js';
import { promptTokensOf } from '../../src/contract/prompt-tokens.js';

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);

describe('prompt blocks', () => {
  it('only full blocks: 63 characters none, 64 one, 191 two', () => {
    expect(textBlocks('x'.repeat(63))).toHaveLength(0);
    expect(textBlocks('x'.repeat(64))).toHaveLength(1);
    expect(textBlocks('x'.repeat(191))).toHaveLength(2);
    expect(PROMPT_BLOCK_CHARS).toBe(64);
  });

  it('the same text gives the same ids; a shared prefix shares its blocks and no more', () => {
    expect(textBlocks(a + b)).toEqual(textBlocks(a + b));
    const ab = textBlocks(a + b);
    const aa = textBlocks(a + a);
    expect(aa[0]).toBe(ab[0]);
    expect(aa[1]).not.toBe(ab[1]);
  });

  it('ids are chained: the same block after a different prefix is another block', () => {
    const xb = textBlocks(a + b);
    const yb = textBlocks(b + b);
    expect(yb[1]).not.toBe(xb[1]);
    // And a block is not its text alone: "bb" has two different ids.
    expect(yb[0]).not.toBe(yb[1]);
  });

  it('ids are safe integers, distinct over many blocks', () => {
    const ids = textBlocks(Array.from({ length: 5000 }, (_, i) => `block ${i} `.padEnd(64, '.')).join(''));
    expect(ids).toHaveLength(5000);
    expect(ids.every((id) => Number.isSafeInteger(id) && id >= 0)).toBe(true);
    expect(new Set(ids).size).toBe(5000);
  });

  it('a chat is its messages’ contents in order, as the prompt tokens count them; text parts and token ids too', () => {
    const chat = {
      messages: [
        { role: 'system', content: a },
        { role: 'user', content: [{ type: 'text', text: b }] },
      ],
    };
    expect(promptBlocksOf(chat)).toEqual(textBlocks(a + b));
    expect(promptBlocksOf({ prompt: a + b })).toEqual(textBlocks(a + b));
    expect(promptTokensOf(chat)).toBe(32);
    // 16 token ids are one block, and not the block of any text.
    const ids = promptBlocksOf({ prompt: Array.from({ length: 16 }, (_, i) => i) });
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(textBlocks('x'.repeat(64))[0]);
    expect(promptBlocksOf({})).toEqual([]);
    expect(promptBlocksOf('text')).toEqual([]);
  });
});
