/**
 * An LLM endpoint's engines over time, beside its occupancy (occupancy.ts) and observed at the
 * same moments: requests running and waiting inside the engines and KV cache usage integrated
 * exactly per window (time averages), the most cache used in each window (values that held for
 * some time: a state between two events of the same ms does not count, so a client that observes
 * before each event and one that observes after it see the same), and preemptions per window (the
 * engines count them at their events; each is put in the window of the observation that sees it),
 * and with prefix caching the prompt tokens that joined a batch and those found cached, per window
 * the same way.
 */
import { TimeAverages } from '../lib/time-averages.js';
import type { Endpoint } from './endpoint.js';
import { blocksPerWorker, kvCacheUsage } from './engine-gauges.js';

/** What one engine occupancy holds for windows 0 to n - 1 (values × ms for the integrated series). */
export interface EngineAreas {
  windowMs: number;
  /** Requests running, then waiting, then (with a modelled cache) KV cache usage: value × ms per window. */
  areas: number[][];
  /** Most KV cache usage held in each window (absent without a modelled cache; -1: nothing held there). */
  usageMax?: number[];
  /** Preemptions per window. */
  preemptions: number[];
  /** With `prefixCaching`: prompt tokens of the requests that joined a batch, and of those the cached ones, per window. */
  prefixQueries?: number[];
  prefixHits?: number[];
}

export class EngineOccupancy {
  private readonly avg: TimeAverages;
  private readonly blocks: number[] | undefined;
  private readonly usageMax: number[] = [];
  private readonly preemptions: number[] = [];
  private seenPreemptions: number;
  /** With prefix caching: per window, and what the engines had counted at the last observation. */
  private readonly prefix: { queries: number[]; hits: number[]; seenQueries: number; seenHits: number } | undefined;
  private t: number;

  constructor(
    private readonly ep: Endpoint,
    readonly windowMs: number,
    nowMs: number,
  ) {
    this.blocks = blocksPerWorker(ep);
    this.avg = new TimeAverages(windowMs, this.blocks === undefined ? 2 : 3, nowMs);
    this.t = nowMs;
    this.seenPreemptions = ep.engines.preemptions;
    this.prefix = ep.cfg.llm?.engine?.prefixCaching
      ? { queries: [], hits: [], seenQueries: ep.engines.prefixQueries, seenHits: ep.engines.prefixHits }
      : undefined;
    this.read();
  }

  observe(nowMs: number): void {
    if (nowMs !== this.t) this.advance(nowMs);
    const p = this.ep.engines.preemptions;
    if (p !== this.seenPreemptions) {
      const i = Math.floor(nowMs / this.windowMs);
      while (this.preemptions.length <= i) this.preemptions.push(0);
      this.preemptions[i]! += p - this.seenPreemptions;
      this.seenPreemptions = p;
    }
    const x = this.prefix;
    if (x !== undefined && this.ep.engines.prefixQueries !== x.seenQueries) {
      const e = this.ep.engines;
      const i = Math.floor(nowMs / this.windowMs);
      while (x.queries.length <= i) x.queries.push(0), x.hits.push(0);
      x.queries[i]! += e.prefixQueries - x.seenQueries;
      x.hits[i]! += e.prefixHits - x.seenHits;
      x.seenQueries = e.prefixQueries;
      x.seenHits = e.prefixHits;
    }
    this.read();
  }

  /** The values held from the last observation until `toMs`: their areas, and the usage maxima of the windows they span. */
  private advance(toMs: number): void {
    if (!(toMs > this.t)) return;
    if (this.blocks !== undefined) {
      const u = this.avg.value[2]!;
      const last = Math.ceil(toMs / this.windowMs) - 1;
      for (let i = Math.floor(this.t / this.windowMs); i <= last; i++) {
        while (this.usageMax.length <= i) this.usageMax.push(-1);
        if (u > this.usageMax[i]!) this.usageMax[i] = u;
      }
    }
    this.avg.advance(toMs);
    this.t = toMs;
  }

  private read(): void {
    const v = this.avg.value;
    const e = this.ep.engines;
    v[0] = e.running;
    v[1] = e.waiting;
    if (this.blocks !== undefined) v[2] = kvCacheUsage(this.ep, this.blocks)!;
  }

  /** Windows 0 to `n - 1`, the run having ended at `endMs`. */
  areas(endMs: number, n: number): EngineAreas {
    this.advance(endMs);
    const col = (a: number[], empty: number) => Array.from({ length: n }, (_, i) => a[i] ?? empty);
    return {
      windowMs: this.windowMs,
      areas: this.avg.areas(endMs, n),
      ...(this.blocks !== undefined ? { usageMax: col(this.usageMax, -1) } : {}),
      preemptions: col(this.preemptions, 0),
      ...(this.prefix !== undefined ? { prefixQueries: col(this.prefix.queries, 0), prefixHits: col(this.prefix.hits, 0) } : {}),
    };
  }
}
