/**
 * The OpenMetrics 1.0 text format, written family by family: `# TYPE`, `# UNIT`, `# HELP`, then
 * the family's samples, each with a timestamp, and `# EOF` last. The caller keeps a series' points
 * together and in increasing time (the renderer builds them that way); this module does the
 * spelling: names, label escaping, canonical `le`/`quantile` values, numbers and timestamps.
 */

import { InternalError } from '../contract/loadlab-error.js';

export type OmType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'info';
export type Labels = readonly (readonly [name: string, value: string])[];

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Label values and HELP text: backslash, double quote and line feed escaped (spec: Escaping). */
export function escapeOm(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Integers without a decimal point, other numbers in JavaScript's shortest round-trip form (both valid OpenMetrics numbers). */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return String(v);
}

/** Canonical `le` and `quantile` values: Go's %g with `.0` added when there is no point or exponent (1 → "1.0"). */
export function canonicalNumber(v: number): string {
  if (v === Infinity) return '+Inf';
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** Epoch milliseconds as seconds with exactly three decimals (no float rounding: 1714564800123 → "1714564800.123"). */
export function formatTimestamp(epochMs: number): string {
  const ms = Math.round(epochMs);
  const a = Math.abs(ms);
  return `${ms < 0 ? '-' : ''}${Math.floor(a / 1000)}.${String(a % 1000).padStart(3, '0')}`;
}

/** Lines held before they go to the sink: a 30-day run writes millions of samples. */
const FLUSH_LINES = 16_384;

/**
 * Writes families and samples. With a `sink`, text goes out in pieces as it is written (memory
 * stays flat however long the run); without one, `text()` returns it all.
 */
export class OpenMetricsWriter {
  private lines: string[] = [];
  private readonly families = new Set<string>();
  private readonly parts: string[] = [];

  constructor(private readonly sink: (text: string) => void = (t) => this.parts.push(t)) {}

  /** Starts a family; every sample written until the next call belongs to it. */
  family(name: string, type: OmType, help: string, unit?: string): void {
    if (!METRIC_NAME.test(name)) throw new InternalError(`bad metric name ${name}`);
    if (this.families.has(name)) throw new InternalError(`family ${name} written twice`);
    if (unit !== undefined && !name.endsWith(`_${unit}`)) throw new InternalError(`unit ${unit} is not a suffix of ${name}`);
    this.families.add(name);
    this.push(`# TYPE ${name} ${type}`);
    if (unit !== undefined) this.push(`# UNIT ${name} ${unit}`);
    this.push(`# HELP ${name} ${escapeOm(help)}`);
  }

  /** A sample's name and labels as written (`name{a="b"}`): made once for a series of many samples. */
  series(name: string, labels: Labels): string {
    const ls = labels.map(([k, v]) => {
      if (!LABEL_NAME.test(k)) throw new InternalError(`bad label name ${k}`);
      return `${k}="${escapeOm(v)}"`;
    });
    return `${name}${ls.length ? `{${ls.join(',')}}` : ''}`;
  }

  /** One sample line of a series (from `series`). */
  sampleOf(series: string, value: number, epochMs: number): void {
    this.push(`${series} ${formatValue(value)} ${formatTimestamp(epochMs)}`);
  }

  /** One sample line; `name` is the sample's name (with `_total`, `_bucket`, … as its type needs). */
  sample(name: string, labels: Labels, value: number, epochMs: number): void {
    this.sampleOf(this.series(name, labels), value, epochMs);
  }

  private push(line: string): void {
    this.lines.push(line);
    if (this.lines.length >= FLUSH_LINES) this.flush();
  }

  private flush(): void {
    if (this.lines.length) this.sink(`${this.lines.join('\n')}\n`);
    this.lines = [];
  }

  /** Writes what is held and `# EOF` to the sink. */
  end(): void {
    this.flush();
    this.sink('# EOF\n');
  }

  /** The whole exposition, ending in `# EOF` and a line feed (without a sink of the caller's). */
  text(): string {
    this.end();
    return this.parts.join('');
  }
}
