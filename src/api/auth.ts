/**
 * API keys: `Authorization: Bearer K` or the bare key. With no configured key, any
 * non-empty key is accepted (a missing one is still 401). Comparison takes the same time
 * wherever the strings differ, so a key cannot be guessed a character at a time.
 */
export function keyOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const h = authorization.trim();
  if (h.length >= 6 && startsWithBearer(h)) {
    if (h.length === 6) return undefined; // "Bearer" and no key
    if (h.charCodeAt(6) === SPACE) {
      const k = h.slice(7).trimStart();
      return k.length > 0 ? k : undefined;
    }
  }
  return h.length > 0 ? h : undefined;
}

const SPACE = 0x20;
/** ASCII letters only: `c | 0x20` is the lower case of a letter and no other code maps onto one. */
const BEARER = [...'bearer'].map((c) => c.charCodeAt(0));

/** Whether `h` starts with "bearer" in any case (no lower-cased copy of the header made). */
function startsWithBearer(h: string): boolean {
  for (let i = 0; i < 6; i++) if ((h.charCodeAt(i) | 0x20) !== BEARER[i]) return false;
  return true;
}

/**
 * Every position of the longer string is compared (a missing character counts as 0) and nothing
 * ends the loop early: the time depends on the lengths only, never on where the strings differ.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const n = a.length > b.length ? a.length : b.length;
  let diff = a.length ^ b.length;
  for (let i = 0; i < n; i++) diff |= (i < a.length ? a.charCodeAt(i) : 0) ^ (i < b.length ? b.charCodeAt(i) : 0);
  return diff === 0;
}

export function authorized(authorization: string | undefined, keys: readonly string[]): boolean {
  const k = keyOf(authorization);
  if (k === undefined) return false;
  if (keys.length === 0) return true;
  let ok = false;
  for (const key of keys) ok = constantTimeEqual(k, key) || ok;
  return ok;
}
