/**
 * A prompt as KV cache blocks identified by content, for prefix caching (`llm.engine.prefixCaching`,
 * vLLM's automatic prefix caching). The prompt's text (prompt-tokens.ts `forEachPromptPart`, the
 * walk promptTokensOf counts by: `messages[].content` in order, or `prompt`; parts concatenated) is
 * cut into blocks of PROMPT_BLOCK_CHARS characters: 16 tokens by the 4-characters-a-token rule, one
 * KV cache block.
 * Only full blocks count (a partial last block is never cached). A token id of a token-id prompt
 * counts as 4 characters of its own (no text character equals it).
 *
 * A block's id hashes every character up to its end, so equal ids mean the same text at the same
 * place after the same text before it (vLLM's block hash, chained through the parent's). Two
 * 32-bit hashes run over the characters (FNV-1a, and a murmur-style multiply-xorshift), mixed at
 * each block's end into a 53-bit id (a safe JS integer). Two different prefixes share an id with
 * odds about n² / 2⁵⁴ over n distinct blocks: one in 18 000 for a million blocks (a wrong hit,
 * never a crash). Cost: a few integer operations per character, and only on endpoints with
 * prefix caching.
 */
import { forEachPromptPart, type PromptParts } from './prompt-tokens.js';

/** Characters of a block: 16 tokens of 4 characters (contract/prompt-tokens.ts, KV_BLOCK_TOKENS). */
export const PROMPT_BLOCK_CHARS = 64;

/** The ids of the full blocks of an OpenAI-style body's or a job input's prompt (`messages` or `prompt`), in order. */
export function promptBlocksOf(body: unknown): number[] {
  const h = new BlockHasher();
  forEachPromptPart(body, h);
  return h.blocks;
}

/** The block ids of a plain text (as `promptBlocksOf({ prompt: text })`). */
export function textBlocks(text: string): number[] {
  const h = new BlockHasher();
  h.text(text);
  return h.blocks;
}

/** A token id, as the unit fed for each of its 4 characters: above every UTF-16 code unit. */
const TOKEN_ID_BASE = 0x10000;

class BlockHasher implements PromptParts {
  readonly blocks: number[] = [];
  private a = 0x811c9dc5;
  private b = 0x9747b28c;
  /** Characters fed into the block under way. */
  private n = 0;

  /** A token id: 4 units of its own. */
  tokenId(p: number): void {
    for (let i = 0; i < 4; i++) this.unit(TOKEN_ID_BASE + (p >>> 0));
  }

  /** The hot loop: one text, character by character (the same as `unit` for each, inlined). */
  text(s: string): void {
    let { a, b, n } = this;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
      if (++n === PROMPT_BLOCK_CHARS) {
        this.blocks.push(blockId(a, b));
        n = 0;
      }
    }
    this.a = a;
    this.b = b;
    this.n = n;
  }

  private unit(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
    this.b ^= this.b >>> 15;
    if (++this.n === PROMPT_BLOCK_CHARS) {
      this.blocks.push(blockId(this.a, this.b));
      this.n = 0;
    }
  }
}

/** The two running hashes at a block's end, mixed (murmur3's finaliser) into a 53-bit id. */
function blockId(a: number, b: number): number {
  return (fmix(b) & 0x1fffff) * 0x1_0000_0000 + (fmix(a) >>> 0);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
