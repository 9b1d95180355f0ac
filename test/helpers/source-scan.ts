/**
 * A small scanner of TypeScript source text for the architecture tests: comments out, strings
 * kept or blanked, and the module specifiers a file imports. Shared by test/sim/purity.test.ts and
 * test/architecture/import-rules.test.ts; both test it on known-bad snippets first (a scanner that
 * matches nothing would let a guard pass).
 */

/**
 * Splits source text into code with comments removed (strings kept, for import specifiers) and
 * code with comments and string contents removed (for the forbidden-name scan, so a message that
 * says "Date" is no violation). Template literals keep their `${…}` code. Not a full lexer: a regex
 * literal holding a quote would hide the code after it up to the next such quote; imports come
 * first in a file, before any such literal.
 */
export function strip(src: string): { code: string; bare: string } {
  let code = '';
  let bare = '';
  let i = 0;
  let depth = 0; // brace depth in code
  const open: number[] = []; // depth at each `${` still open, innermost last
  const emit = (c: string, inString: boolean) => {
    code += c;
    bare += inString && c !== '\n' ? ' ' : c;
  };
  /** Reads string text up to the closing quote, or (templates) up to a `${`. */
  const readStringBody = (q: string) => {
    while (i < src.length && src[i] !== q) {
      if (q === '`' && src[i] === '$' && src[i + 1] === '{') {
        emit('${', false);
        i += 2;
        open.push(depth++);
        return;
      }
      if (src[i] === '\\') emit(src[i++]!, true);
      emit(src[i++]!, true);
    }
    if (i < src.length) emit(src[i++]!, false);
  };
  while (i < src.length) {
    const c = src[i]!;
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      const chunk = src.slice(i, end < 0 ? src.length : end + 2);
      const lines = '\n'.repeat(chunk.split('\n').length - 1);
      code += lines;
      bare += lines;
      i += chunk.length;
    } else if (c === "'" || c === '"' || c === '`') {
      emit(c, false);
      i++;
      readStringBody(c);
    } else if (c === '}' && open.length > 0 && open[open.length - 1] === depth - 1) {
      // the end of a template's `${…}`: back into the template's text
      open.pop();
      depth--;
      emit(c, false);
      i++;
      readStringBody('`');
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      emit(c, false);
      i++;
    }
  }
  return { code, bare };
}

/**
 * Module specifiers of static imports and re-exports (`import … from`, `import '…'`, `export … from`,
 * type-only forms included) in code from `strip(…).code`.
 */
export function specifiers(code: string): string[] {
  return staticMatches(code).map((m) => m[1]!);
}

/**
 * Every module a source file names: static imports and re-exports, plus `import('…')` (dynamic
 * imports and type positions such as `import('./x.js').T`). A match whose keyword sits inside a
 * string or comment does not count (`strip` keeps `code` and `bare` aligned character for character).
 */
export function importsOf(src: string): string[] {
  const { code, bare } = strip(src);
  const inCode = (m: RegExpExecArray) => bare.startsWith(m[0].slice(0, 6), m.index);
  const dynamic = [...code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return [...staticMatches(code), ...dynamic]
    .filter(inCode)
    .sort((a, b) => a.index - b.index)
    .map((m) => m[1]!);
}

function staticMatches(code: string): RegExpExecArray[] {
  return [...code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/g)];
}
