/**
 * What a scenario asks of the HTTP send path before the clock starts: its peak sessions per second
 * (the size of the warm-up, warmup.ts) and the connections worth opening ahead.
 */
import { meanJobMs } from '../../../contract/llm-config.js';
import { leastSessionMs } from '../../behaviours/registry.js';
import { isClosed, peakArrivalsPerSec } from '../../arrivals/registry.js';
import type { Scenario } from '../../scenario/schema.js';

/**
 * Connections `run --target` opens before the clock starts: one per this many arrivals/s at the
 * scenario's peak (all flows), at most `--connections`. Opened on demand instead, a high rate
 * opened them all in its first ~100 ms (256 at 10 000/s: each new socket a connect, an accept
 * and a first request on a cold connection, on both sides of a loopback), and that storm held the
 * first arrivals back by tens to hundreds of ms (docs/performance.md, "generator-vs-peers").
 */
export const ARRIVALS_PER_PRECONNECTED = 50;

export interface SendLoad {
  /** Peak sessions per second over all flows (each flow's own peak: an upper bound). */
  peakPerSec: number;
  /**
   * Connections to open ahead (before the `--connections` cap): one per ARRIVALS_PER_PRECONNECTED
   * of the open flows' peak, and one per user of a closed flow, whose users all send at once at
   * its start (without rampUpMs) and each keep a request in flight most of the time.
   */
  connections: number;
}

export function sendLoad(sc: Scenario): SendLoad {
  const jobMs = meanJobMs(sc.endpoint);
  let openPeak = 0;
  let closedPeak = 0;
  let users = 0;
  for (const f of sc.traffic) {
    const peak = peakArrivalsPerSec(f.arrival, sc.durationMs, leastSessionMs(f.client, jobMs));
    if (isClosed(f.arrival)) {
      closedPeak += peak;
      users += f.arrival.users;
    } else openPeak += peak;
  }
  return { peakPerSec: openPeak + closedPeak, connections: Math.ceil(openPeak / ARRIVALS_PER_PRECONNECTED) + users };
}
