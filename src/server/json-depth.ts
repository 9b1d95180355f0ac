/**
 * Nesting depth of a JSON text, measured without parsing. A body nested thousands deep parses
 * fine but cannot be serialised back (JSON.stringify overflows the stack when the job's echo is
 * answered), so the adapter refuses it up front. One pass, O(length), no allocation.
 */

/** Deepest accepted nesting of objects and arrays in a request body. */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJ = 0x7b;
const OPEN_ARR = 0x5b;
const CLOSE_OBJ = 0x7d;
const CLOSE_ARR = 0x5d;

export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false; // each level takes at least one character
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJ || c === OPEN_ARR) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      depth--;
    }
  }
  return false;
}
