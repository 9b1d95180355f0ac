/**
 * Purity guard for src/sim, src/sampling, src/lib and src/contract (DESIGN "Time, randomness, determinism"): the core reads no clock, no
 * timer, no ambient randomness, no process state, and imports nothing but its own files, zod and
 * seedrandom's Alea. The scanner is tested on known-bad snippets first, so a guard that silently
 * matches nothing fails too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importEdges } from '../helpers/import-graph.js';
import { specifiers, strip } from '../helpers/source-scan.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The core and the two leaf folders it may import (test/architecture/import-rules.test.ts checks who imports what). */
const PURE = ['sim', 'sampling', 'lib', 'contract'].map((d) => join(ROOT, 'src', d));
const ALLOWED_PACKAGES = new Set(['zod', 'seedrandom/lib/alea.js']);

/** Globals that read the clock, schedule real time, draw ambient randomness or reach the process. */
const FORBIDDEN: [string, RegExp][] = [
  ['Date', /\bDate\b/],
  ['performance', /\bperformance\b/],
  ['process', /\bprocess\b/],
  ['hrtime', /\bhrtime\b/],
  ['setTimeout', /\bsetTimeout\b/],
  ['setInterval', /\bsetInterval\b/],
  ['setImmediate', /\bsetImmediate\b/],
  ['queueMicrotask', /\bqueueMicrotask\b/],
  ['Math.random', /\bMath\s*\.\s*random\b/],
  ['crypto', /\bcrypto\b/],
  ['require', /\brequire\b/],
  ['globalThis', /\bglobalThis\b/],
  ['eval', /\beval\b/],
  ['Function constructor', /\bnew\s+Function\b/],
  ['dynamic import', /\bimport\s*\(/],
];

function violations(src: string): string[] {
  const { code, bare } = strip(src);
  const found: string[] = [];
  for (const [name, re] of FORBIDDEN) if (re.test(bare)) found.push(name);
  for (const s of specifiers(code)) {
    const bareName = s.replace(/^node:/, '').split('/')[0]!;
    if (s.startsWith('node:') || builtinModules.includes(bareName)) found.push(`node builtin "${s}"`);
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('purity scanner (self-test)', () => {
  it.each([
    ['const t = Date.now();', 'Date'],
    ['const d = new Date();', 'Date'],
    ['const t = performance.now();', 'performance'],
    ['const [s] = process.hrtime();', 'process'],
    ['setTimeout(() => {}, 10);', 'setTimeout'],
    ['setInterval(f, 10);', 'setInterval'],
    ['setImmediate(f);', 'setImmediate'],
    ['queueMicrotask(f);', 'queueMicrotask'],
    ['const r = Math.random();', 'Math.random'],
    ['const r = Math . random();', 'Math.random'],
    ['const u = crypto.randomUUID();', 'crypto'],
    ["const fs = require('fs');", 'require'],
    ["const x = globalThis['Da' + 'te'];", 'globalThis'],
    ['const s = `${Date.now()}`;', 'Date'],
    ['const s = `a${x}b${Math.random()}c`;', 'Math.random'],
    ["import { readFileSync } from 'node:fs';", 'node builtin "node:fs"'],
    ["import fs from 'fs';", 'node builtin "fs"'],
    ["import { join } from 'path/posix';", 'node builtin "path/posix"'],
    ["export { EventEmitter } from 'events';", 'node builtin "events"'],
    ["import 'timers';", 'node builtin "timers"'],
    ["const m = await import('./x.js');", 'dynamic import'],
  ])('flags %s', (src, expected) => {
    expect(violations(src)).toContain(expected);
  });

  it.each([
    '// Date.now() would break determinism\nconst a = 1;',
    '/* setTimeout, Math.random, process */ const a = 1;',
    "const msg = 'no Date, no process, no setTimeout here';",
    'const msg = `job ${id} ended; Date and process are only words here`;',
    'const validate = (x: number) => x; // update(x)',
    "import { z } from 'zod';",
  ])('passes %s', (src) => {
    expect(violations(src)).toEqual([]);
  });

  it('reads import specifiers of every form', () => {
    const code = strip(
      [
        "import { a } from './a.js';",
        "import type { B } from '../b.js';",
        "import * as c from 'zod';",
        "import d, { e } from './d.js';",
        "import './side-effect.js';",
        "export { f } from './f.js';",
        "export * from './g.js';",
        "export type { H } from './h.js';",
      ].join('\n'),
    ).code;
    expect(specifiers(code)).toEqual(['./a.js', '../b.js', 'zod', './d.js', './side-effect.js', './f.js', './g.js', './h.js']);
  });
});

describe('src/sim, src/sampling, src/lib and src/contract are pure', () => {
  const files = PURE.flatMap((d) => filesUnder(d)).filter((f) => f.endsWith('.ts'));

  it('has sources to check', () => {
    expect(files.length).toBeGreaterThan(10);
    const names = files.map((f) => relative(join(ROOT, 'src'), f));
    expect(names).toContain(join('lib', 'scheduler.ts'));
    expect(names).toContain(join('sim', 'simulator.ts'));
    expect(names).toContain(join('contract', 'endpoint-config.ts'));
  });

  it('reads no clock, timer, ambient randomness or process state, and imports no node builtin', () => {
    const bad = files.map((f) => ({ file: relative(ROOT, f), found: violations(readFileSync(f, 'utf8')) })).filter((x) => x.found.length > 0);
    expect(bad).toEqual([]);
  });

  it('has an import graph that reaches only these folders and the allowed packages', () => {
    const pure = (rel: string) => PURE.some((d) => join(ROOT, 'src', rel).startsWith(d + sep));
    const edges = importEdges(join(ROOT, 'src')).filter((e) => pure(e.from));
    const escapes = edges.filter((e) => e.to !== undefined && !pure(e.to)).map((e) => `${e.from} -> ${e.spec}`);
    const packages = new Set(edges.filter((e) => e.to === undefined).map((e) => e.spec));
    expect(escapes).toEqual([]);
    expect([...packages].filter((p) => !ALLOWED_PACKAGES.has(p))).toEqual([]);
    // Every file reached exists (a typo'd import would otherwise be skipped silently).
    for (const e of edges) if (e.to !== undefined) expect(statSync(join(ROOT, 'src', e.to)).isFile()).toBe(true);
    expect(packages.has('zod')).toBe(true);
  });
});
