/**
 * The threshold language's grammar: `metric{selector, …} <cmp> number [every <duration>]`, e.g.
 * `p99_ms{run} < 5000`, `jobs_failed{flow=batch} == 0`, `p95_ms{operation=run} < 500 every 60s`.
 * A selector is a bare operation name or `kind=value` (kinds: operation, flow, status, cause). This file
 * only reads the text; which names exist is checked in threshold-check.ts.
 */
export const CMP = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
  '==': (a: number, b: number) => a === b,
  '!=': (a: number, b: number) => a !== b,
} as const;
export type Cmp = keyof typeof CMP;

export const SELECTOR_KINDS = ['operation', 'flow', 'status', 'cause'] as const;
export type SelectorKind = (typeof SELECTOR_KINDS)[number];
export type Selection = Partial<Record<SelectorKind, string>>;

export interface Threshold {
  expr: string;
  metric: string;
  selection: Selection;
  cmp: Cmp;
  value: number;
  /** `every …`: must hold in every window of this length (ms). */
  everyMs?: number;
}

const RE = /^\s*([A-Za-z0-9_]+)\s*(?:\{([^}]*)\})?\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*(?:every\s+(\d+)\s*(ms|s|m|h)\s*)?$/;
/** ms per unit of a duration (`every 60s`; the CLI's duration flags take the same units). */
export const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const NAME = /^[A-Za-z0-9_.-]+$/;

/** Parses one threshold; a string is what is wrong with it. */
export function parseThreshold(expr: string): Threshold | string {
  const m = RE.exec(expr);
  if (!m) return `cannot read "${expr}": expected "metric{selector} <op> number [every 60s]", e.g. "p99_ms{run} < 2000"`;
  const [, metric, sel, cmp, value, every, unit] = m;
  const selection: Selection = {};
  for (const part of sel === undefined ? [] : sel.split(',')) {
    const item = part.trim();
    const eq = item.indexOf('=');
    const kind = eq < 0 ? 'operation' : item.slice(0, eq).trim();
    const v = eq < 0 ? item : item.slice(eq + 1).trim();
    if (!(SELECTOR_KINDS as readonly string[]).includes(kind)) return `unknown selector kind "${kind}" in "${expr}"; kinds: ${SELECTOR_KINDS.join(', ')}`;
    if (!NAME.test(v)) return `selector "${item}" in "${expr}" needs a name (letters, digits, "_", "." and "-")`;
    if (selection[kind as SelectorKind] !== undefined) return `selector kind "${kind}" given twice in "${expr}"`;
    selection[kind as SelectorKind] = v;
  }
  return {
    expr: expr.trim(),
    metric: metric!,
    selection,
    cmp: cmp as Cmp,
    value: Number(value),
    ...(every === undefined ? {} : { everyMs: Number(every) * UNIT_MS[unit as keyof typeof UNIT_MS] }),
  };
}
