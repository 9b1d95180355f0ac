/** How plan.md and plan.html write numbers: figures, shares, dollars, and a range over the seeds. Pure. */

/** A figure: whole numbers as they are, else 0 decimals from 100, 2 from 1, 3 significant below. */
export const fmt = (v: number) => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));

/** min–max over the seeds (one figure when they agree); — for no data. */
export function spread(vs: readonly (number | null)[], f: (v: number) => string = fmt): string {
  const xs = vs.filter((v): v is number => v !== null);
  if (!xs.length) return '—';
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? f(lo) : `${f(lo)}–${f(hi)}`;
}

export const pct = (v: number) => `${(v * 100).toPrecision(3)} %`;
export const usd = (v: number) => `$${v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3)}`;
