/**
 * The OpenMetrics 1.0 text format, written family by family: `# TYPE`, `# UNIT`, `# HELP`, then
 * the family's samples, each with a timestamp, and `# EOF` last. The caller keeps a series' points
 * together and in increasing time (the renderer builds them that way); this module does the
 * spelling: names, label escaping, canonical `le`/`quantile` values, numbers and timestamps.
 */

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

export class OpenMetricsWriter {
  private readonly lines: string[] = [];
  private readonly families = new Set<string>();

  /** Starts a family; every sample written until the next call belongs to it. */
  family(name: string, type: OmType, help: string, unit?: string): void {
    if (!METRIC_NAME.test(name)) throw new Error(`bad metric name ${name}`);
    if (this.families.has(name)) throw new Error(`family ${name} written twice`);
    if (unit !== undefined && !name.endsWith(`_${unit}`)) throw new Error(`unit ${unit} is not a suffix of ${name}`);
    this.families.add(name);
    this.lines.push(`# TYPE ${name} ${type}`);
    if (unit !== undefined) this.lines.push(`# UNIT ${name} ${unit}`);
    this.lines.push(`# HELP ${name} ${escapeOm(help)}`);
  }

  /** One sample line; `name` is the sample's name (with `_total`, `_bucket`, … as its type needs). */
  sample(name: string, labels: Labels, value: number, epochMs: number): void {
    const ls = labels.map(([k, v]) => {
      if (!LABEL_NAME.test(k)) throw new Error(`bad label name ${k}`);
      return `${k}="${escapeOm(v)}"`;
    });
    this.lines.push(`${name}${ls.length ? `{${ls.join(',')}}` : ''} ${formatValue(value)} ${formatTimestamp(epochMs)}`);
  }

  /** The exposition, ending in `# EOF` and a line feed. */
  text(): string {
    return `${this.lines.join('\n')}${this.lines.length ? '\n' : ''}# EOF\n`;
  }
}
