/**
 * The token model's draws, from the streams the core draws from (the same seed and stream names):
 * at each start the count (at least 1, at most 4096, capped by max_tokens), then, without an
 * engine, the time to the first token and each gap. An engine times the tokens itself: the count
 * alone is drawn.
 */
import { Alea } from '../../src/lib/random.js';
import type { RefConfig, RefDist } from './types.js';

export class TokenDraws {
  private readonly counts: Alea;
  private readonly ttfts: Alea;
  private readonly gaps: Alea;

  constructor(private readonly cfg: RefConfig) {
    this.counts = new Alea(`${cfg.seed}/ep/llm-tokens`);
    this.ttfts = new Alea(`${cfg.seed}/ep/llm-ttft`);
    this.gaps = new Alea(`${cfg.seed}/ep/llm-gaps`);
  }

  count(maxTokens: number | undefined): { count: number; capped: boolean } {
    const drawn = Math.min(4096, Math.max(1, draw(this.cfg.llm!.outputTokens, this.counts)));
    const capped = maxTokens !== undefined && drawn > maxTokens;
    return { count: capped ? maxTokens : drawn, capped };
  }

  /** The count, then the time to the first token, then each gap: `atMs` are ms after the start. */
  plan(maxTokens: number | undefined): { count: number; capped: boolean; atMs: number[] } {
    const l = this.cfg.llm!;
    if (l.engine) throw new Error('an engine times its tokens');
    const { count, capped } = this.count(maxTokens);
    const atMs = [draw(l.ttftMs, this.ttfts)];
    for (let k = 1; k < count; k++) atMs.push(atMs[k - 1]! + draw(l.interTokenMs, this.gaps));
    return { count, capped, atMs };
  }
}

/** A constant, or a uniform draw rounded as the core rounds it. */
function draw(d: RefDist, a: Alea): number {
  return typeof d === 'number' ? d : Math.max(0, Math.round(d.minMs + a.next() * (d.maxMs - d.minMs)));
}
