/**
 * No import circles between files under src/ (type-only imports count: a circle of types still
 * ties the files together). The graph is file-level: each `import … from './x.js'` and
 * `export … from './x.js'` (and bare `import './x.js'`) with a relative specifier is an edge to
 * the `.ts` file it names. A circle is a strongly connected group of more than one file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (/\.m?ts$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:^|[\n;])\s*(?:(?:import|export)\b[^'"`;]*?\bfrom|import)\s*['"](\.[^'"]+)['"]/g;

/** The file a relative specifier names: `x.js` is `x.ts`; a bare `x` is `x.ts` or `x/index.ts`. */
function resolve(from: string, spec: string): string {
  const t = path.resolve(path.dirname(from), spec).replace(/\.(m?)js$/, '.$1ts');
  if (/\.m?ts$/.test(t)) return t;
  return fs.existsSync(`${t}.ts`) ? `${t}.ts` : path.join(t, 'index.ts');
}

/** Each import circle among the .ts files under `root`, as sorted paths relative to `root`. */
function importCircles(root: string): string[][] {
  const files = tsFiles(root);
  const edges = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const f of files) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(SPECIFIER)) {
      const t = resolve(f, m[1]!);
      if (edges.has(t)) edges.get(f)!.push(t);
    }
  }
  // Tarjan's strongly connected components.
  let next = 0;
  const num = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    num.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!num.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, num.get(w)!));
    }
    if (low.get(v) !== num.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) circles.push(group.map((f) => path.relative(root, f).split(path.sep).join('/')).sort());
  };
  for (const f of files) if (!num.has(f)) visit(f);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('import circles', () => {
  it('src/ has none', () => {
    const listed = importCircles(SRC).map((c) => `circle of ${c.length}: ${c.join(', ')}`);
    expect(listed).toEqual([]);
  });

  it('the finder sees a circle through type-only imports, re-exports and multi-line imports', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-circles-'));
    try {
      const write = (name: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      };
      write('a.ts', "import type { B } from './b.js';\nexport type A = B[];\n");
      write('b.ts', "export { c } from './sub/c.js';\nexport type B = number;\n");
      write('sub/c.ts', "import {\n  type A,\n} from '../a.js';\nexport const c = (x: A) => x;\n");
      write('d.ts', "import { c } from './sub/c.js';\nexport const d = c;\n"); // points in, not part of it
      write('e.ts', "import './f.js';\n");
      write('f.ts', "import './e';\n");
      expect(importCircles(dir)).toEqual([['a.ts', 'b.ts', 'sub/c.ts'], ['e.ts', 'f.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
