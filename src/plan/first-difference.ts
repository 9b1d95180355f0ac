/**
 * The first place where two JSON values differ (depth first, in the first value's key order), as a
 * dotted path and the two values there; undefined when they are equal. Pure.
 */
export interface Difference {
  path: string;
  a: unknown;
  b: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function firstDifference(a: unknown, b: unknown, path = ''): Difference | undefined {
  const at = (k: string | number) => (path ? `${path}.${k}` : String(k));
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return { path: path || '(top)', a, b };
      const d = firstDifference(a[i], b[i], at(i));
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], at(k));
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : { path: path || '(top)', a, b };
}
