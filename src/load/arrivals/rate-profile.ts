/**
 * A piecewise-linear rate profile (arrivals per second over virtual ms) and its inverse
 * cumulative intensity. Every shaped process (constant, ramp, stages, spike, diurnal) is one of
 * these; arrival k lands where the integral of the rate reaches k (evenly spaced) or reaches the
 * k-th partial sum of Exp(1) draws (a non-homogeneous Poisson process by time change).
 */
import type { RandomStream } from '../../lib/random.js';
import type { ArrivalGenerator } from './types.js';
import { InternalError } from '../../contract/loadlab-error.js';

/** A corner of the profile: at `atMs` the rate is `perSec`; linear in between, flat after the last. */
export interface RatePoint {
  atMs: number;
  perSec: number;
}

export class RateProfile {
  /** Cumulative expected arrivals at each point. */
  private readonly cum: number[] = [];

  constructor(private readonly pts: readonly RatePoint[]) {
    if (pts.length === 0 || pts[0]!.atMs !== 0) throw new InternalError('a rate profile starts at 0 ms');
    let c = 0;
    this.cum.push(0);
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1]!;
      const b = pts[i]!;
      c += ((a.perSec + b.perSec) / 2) * ((b.atMs - a.atMs) / 1000);
      this.cum.push(c);
    }
  }

  /** Expected arrivals in [0, tMs). */
  integral(tMs: number): number {
    const i = this.segmentAt(tMs);
    const p = this.pts[i]!;
    const x = tMs - p.atMs;
    const { b, a } = this.coeffs(i);
    return this.cum[i]! + b * x + (a * x * x) / 2;
  }

  peakPerSec(untilMs: number): number {
    let m = 0;
    for (const p of this.pts) if (p.atMs <= untilMs && p.perSec > m) m = p.perSec;
    const last = this.pts[this.pts.length - 1]!;
    return Math.max(m, last.atMs <= untilMs ? last.perSec : 0);
  }

  /** Arrival times until `endMs`: evenly spaced in cumulative intensity, or Poisson when `rng` is given. */
  generator(endMs: number, rng?: RandomStream): ArrivalGenerator {
    return new ProfileArrivals(this, endMs, rng);
  }

  private segmentAt(tMs: number): number {
    let i = this.pts.length - 1;
    while (i > 0 && this.pts[i]!.atMs > tMs) i--;
    return i;
  }

  /** Rate at the segment start in arrivals/ms, and its slope in arrivals/ms². */
  private coeffs(i: number): { b: number; a: number } {
    const p = this.pts[i]!;
    const q = this.pts[i + 1];
    const b = p.perSec / 1000;
    const a = q ? (q.perSec - p.perSec) / 1000 / (q.atMs - p.atMs) : 0;
    return { b, a };
  }

  /**
   * Where the cumulative intensity reaches `target`, searching forward from segment `from`;
   * NaN when the rate is zero from there on. The segment found is left in `lastSeg` (no result
   * object per arrival).
   */
  inverse(target: number, from: number): number {
    let i = from;
    while (i + 1 < this.pts.length && this.cum[i + 1]! <= target) i++;
    this.lastSeg = i;
    const p = this.pts[i]!;
    const q = this.pts[i + 1];
    const b = p.perSec / 1000;
    const a = q ? (q.perSec - p.perSec) / 1000 / (q.atMs - p.atMs) : 0;
    const rest = target - this.cum[i]!;
    if (rest === 0) return p.atMs;
    // Solve a x²/2 + b x = rest in the form that stays stable when a → 0.
    const disc = b * b + 2 * a * rest;
    const denom = b + Math.sqrt(disc > 0 ? disc : 0);
    if (!(denom > 0)) return NaN; // zero rate from here on
    return p.atMs + (2 * rest) / denom;
  }

  /** The segment of the last `inverse`. */
  lastSeg = 0;
}

/** A profile's arrivals: the running target of cumulative intensity and the segment it is in. */
class ProfileArrivals implements ArrivalGenerator {
  private target = 0;
  private seg = 0;
  private done = false;

  constructor(
    private readonly profile: RateProfile,
    private readonly endMs: number,
    private readonly rng: RandomStream | undefined,
  ) {
    if (rng) this.target = this.step();
  }

  private step(): number {
    return this.rng ? -Math.log(1 - this.rng.next()) : 1;
  }

  next(): number | undefined {
    if (this.done) return undefined;
    const p = this.profile;
    const t = p.inverse(this.target, this.seg);
    if (Number.isNaN(t) || t >= this.endMs) {
      this.done = true;
      return undefined;
    }
    this.seg = p.lastSeg;
    this.target += this.step();
    return t;
  }
}
