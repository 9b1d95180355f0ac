/**
 * The file-level import graph of a source tree, for test/architecture/import-rules.test.ts: each
 * relative specifier a file names (static, re-export, type-only or `import('…')`; see
 * source-scan.ts) is an edge to the `.ts` file it names. Circles are strongly connected groups of
 * more than one file (Tarjan).
 */
import fs from 'node:fs';
import path from 'node:path';
import { importsOf } from './source-scan.js';

/** Every `.ts`/`.mts` file under `dir`, declaration files (`.d.ts`) included. */
export function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (/\.m?ts$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** The file a relative specifier names (NodeNext: `x.js` is `x.ts`; a bare `x` is `x.ts` or `x/index.ts`). */
export function resolveSpecifier(from: string, spec: string): string {
  const t = path.resolve(path.dirname(from), spec).replace(/\.(m?)js$/, '.$1ts');
  if (/\.m?ts$/.test(t)) return t;
  return fs.existsSync(`${t}.ts`) ? `${t}.ts` : path.join(t, 'index.ts');
}

export interface Edge {
  /** The importing file, relative to the root, with `/` separators. */
  from: string;
  /** As written in the source. */
  spec: string;
  /** The imported file relative to the root, or undefined for a package or builtin. */
  to: string | undefined;
}

/** Each import of each file under `root`. */
export function importEdges(root: string): Edge[] {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  return tsFiles(root).flatMap((f) =>
    importsOf(fs.readFileSync(f, 'utf8')).map((spec) => ({
      from: rel(f),
      spec,
      to: spec.startsWith('.') ? rel(resolveSpecifier(f, spec)) : undefined,
    })),
  );
}

/** Each import circle among the files of `edges`, as sorted relative paths. */
export function importCircles(edges: Edge[]): string[][] {
  const out = new Map<string, string[]>();
  for (const e of edges) {
    if (!out.has(e.from)) out.set(e.from, []);
    if (e.to !== undefined) out.get(e.from)!.push(e.to);
  }
  let next = 0;
  const num = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    num.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of out.get(v) ?? []) {
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
    if (group.length > 1) circles.push(group.sort());
  };
  for (const f of out.keys()) if (!num.has(f)) visit(f);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
