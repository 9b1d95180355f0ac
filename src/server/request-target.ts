/**
 * Splits a request target into a decoded path and a query object, rejecting what a careless
 * decoder would crash on: malformed percent-encoding (400) and overlong targets (414).
 */

/** Longest accepted request target, in characters. Job ids are ~40; 8 KiB leaves room for queries. */
export const MAX_TARGET_CHARS = 8192;

export type Target = { ok: true; path: string; query: Record<string, string> } | { ok: false; reason: 'too-long' | 'bad-encoding' };

/** Decodes a URI component, or undefined when its percent-encoding is malformed. */
function decode(s: string, plusIsSpace: boolean): string | undefined {
  const t = plusIsSpace && s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!t.includes('%')) return t;
  try {
    return decodeURIComponent(t);
  } catch {
    return undefined;
  }
}

/** The query of a target without one: shared, frozen (readers only look keys up). */
const NO_QUERY: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);

export function parseTarget(url: string | undefined): Target {
  const raw = url ?? '/';
  if (raw.length > MAX_TARGET_CHARS) return { ok: false, reason: 'too-long' };
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  const path = decode(rawPath, false);
  if (path === undefined) return { ok: false, reason: 'bad-encoding' };
  if (q < 0 || q === raw.length - 1) return { ok: true, path, query: NO_QUERY };
  // A null-prototype object: keys such as `__proto__` or `constructor` are plain data here.
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of raw.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const k = decode(eq < 0 ? pair : pair.slice(0, eq), true);
    const v = decode(eq < 0 ? '' : pair.slice(eq + 1), true);
    if (k === undefined || v === undefined) return { ok: false, reason: 'bad-encoding' };
    if (!(k in query)) query[k] = v; // first occurrence wins
  }
  return { ok: true, path, query };
}
