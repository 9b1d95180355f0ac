/**
 * API keys: `Authorization: Bearer K` or the bare key (spec §5). With no configured key, any
 * non-empty key is accepted (a missing one is still 401). Comparison takes the same time
 * wherever the strings differ, so a key cannot be guessed a character at a time.
 */
export function keyOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const h = authorization.trim();
  if (h.toLowerCase() === 'bearer') return undefined;
  const k = h.length > 7 && h.slice(0, 7).toLowerCase() === 'bearer ' ? h.slice(7).trimStart() : h;
  return k.length > 0 ? k : undefined;
}

export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i % (a.length || 1)) || 0) ^ (b.charCodeAt(i % (b.length || 1)) || 0);
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
