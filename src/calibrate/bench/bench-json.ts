/**
 * What the readers of GuideLLM and GenAI-Perf files share: a file's result (several runs, and
 * the ones left out with why), and reading a nested field by its path, where a present field of
 * the wrong type is an issue naming the path (`benchmarks.2.metrics.request_latency.successful.median`).
 */
import type { BenchIssue, BenchRun, MetricSummary } from './bench-file.js';

export type Json = Record<string, unknown>;

/** A file read: its runs and the runs it holds that calibrate cannot use (each with why), or why the whole file is refused. */
export type BenchFileParse = { ok: true; runs: BenchRun[]; skipped: BenchIssue[] } | { ok: false; issues: BenchIssue[] };

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at `path` below `root`; undefined when a step is missing or not an object. */
export function at(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const step of path.split('.')) {
    if (Array.isArray(v) && /^\d+$/.test(step)) v = v[Number(step)];
    else if (isObject(v)) v = v[step];
    else return undefined;
  }
  return v;
}

/** Reads fields of one JSON object, each by its path, collecting an issue for each present field of the wrong type. */
export class FieldReader {
  constructor(
    readonly file: string,
    readonly root: unknown,
    readonly issues: BenchIssue[],
  ) {}

  issue(field: string, reason: string): void {
    if (!this.issues.some((i) => i.field === field)) this.issues.push({ file: this.file, field, reason });
  }

  /** A missing field the fit needs (not when it, or a field beside it such as its unit, was already refused). */
  need(field: string, why: string): void {
    const parent = field.slice(0, field.lastIndexOf('.') + 1);
    if (parent !== '' && this.issues.some((i) => i.field.startsWith(parent) && !i.field.slice(parent.length).includes('.'))) return;
    this.issue(field, `missing (${why})`);
  }

  /** A number >= 0 (a whole one with `whole`), times `scale`; undefined when absent (or null). */
  num(path: string, o: { whole?: boolean; scale?: number; what?: string } = {}): number | undefined {
    const v = at(this.root, path);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && (!o.whole || Number.isInteger(v))) return v * (o.scale ?? 1);
    this.issue(path, `${JSON.stringify(v)}: not ${o.what ?? (o.whole ? 'a whole number >= 0' : 'a number >= 0')}`);
    return undefined;
  }

  str(path: string): string | undefined {
    const v = at(this.root, path);
    return typeof v === 'string' && v !== '' ? v : undefined;
  }
}

/** A summary read from `path`: mean, median, std and percentiles under the tool's names, each times `scale` (to ms). */
export function summaryAt(
  r: FieldReader,
  path: string,
  names: { mean: string; median: string; std: string; percentiles?: string },
  percentileKey: (key: string) => string | undefined,
  scale: number,
): MetricSummary {
  const out: MetricSummary = { percentiles: {} };
  for (const [k, name] of [
    ['mean', names.mean],
    ['median', names.median],
    ['std', names.std],
  ] as const) {
    const v = r.num(`${path}.${name}`, { scale });
    if (v !== undefined) out[k] = v;
  }
  const pPath = names.percentiles ? `${path}.${names.percentiles}` : path;
  const ps = at(r.root, pPath);
  if (isObject(ps))
    for (const key of Object.keys(ps)) {
      const p = percentileKey(key);
      if (p === undefined) continue;
      const v = r.num(`${pPath}.${key}`, { scale });
      if (v !== undefined) out.percentiles[p] = v;
    }
  return out;
}

export function meanOf(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
