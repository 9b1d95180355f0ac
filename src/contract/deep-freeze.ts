/**
 * Validated configuration is read-only (validated once at the boundary, then
 * trusted): the parsers freeze what they return, so a later change is a TypeError in strict code
 * (every ES module) instead of a silent difference between what was checked and what runs.
 * Derive a changed config by building a new object, not by editing a validated one.
 */

/** Freezes `value` and every object and array reachable from it; returns it, typed read-only. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  // Arrays by index: a replay trace holds up to millions of numbers, and Object.values would copy them.
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  else for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
  return value;
}
