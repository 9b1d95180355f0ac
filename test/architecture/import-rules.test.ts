/**
 * Who may import whom under src/: the folder table explained in docs/architecture.md (the data is
 * folder-rules.ts), and no import circles between files. Type-only imports, re-exports and
 * `import('…')` count. The scanner and the checks run first on known-bad trees, so a guard that
 * matches nothing fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles, importEdges } from '../helpers/import-graph.js';
import { importsOf } from '../helpers/source-scan.js';
import { ruleViolations } from './folder-rules.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** A throw-away tree of source files; `check` runs on its root. */
function withTree<T>(files: Record<string, string>, check: (root: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return check(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const violationsIn = (root: string) => ruleViolations(importEdges(root), (rel) => fs.existsSync(path.join(root, rel)));

describe('import scanner (self-test)', () => {
  it('reads every form of import, and none inside strings or comments', () => {
    const src = [
      "import {\n  type A,\n  b,\n} from './a.js';",
      "import type { C } from '../c.js';",
      "import * as z from 'zod';",
      "import './side-effect.js';",
      "export { f } from './f.js';",
      "export * as g from './g.js';",
      "export type { H } from './h.js';",
      "type T = import('./t.js').T;",
      "const m = await import('./m.js');",
      "// import { x } from './commented.js';",
      "/* export * from './block.js'; */",
      'const s = "import y from \'./quoted.js\'";',
      "const u = `import('./template.js')`;",
    ].join('\n');
    expect(importsOf(src)).toEqual(['./a.js', '../c.js', 'zod', './side-effect.js', './f.js', './g.js', './h.js', './t.js', './m.js']);
  });
});

describe('folder rules (self-test on a known-bad tree)', () => {
  it('flags each kind of breach and passes the allowed imports', () => {
    const found = withTree(
      {
        'contract/ops.ts': "import type { R } from '../lib/random.js';\nexport type Op = R;\n",
        'lib/random.ts': "import { readFileSync } from 'node:fs';\nimport path from 'path';\nexport type R = number;\n",
        'sim/sim.ts': "import type { Op } from '../contract/ops.js';\nimport { handle } from '../api/api.js';\n",
        'api/api.ts': "import { x } from '../sim/sim.js';\nimport { main } from '../cli/main.js';\nexport const handle = 1;\n",
        'load/run.ts': "import { Sim } from '../sim/sim.js';\nimport type { R } from '../report/result.js';\n",
        'load/targets/in-process/target.ts': "import { Sim } from '../../../sim/sim.js';\nimport { handle } from '../../../api/api.js';\n",
        'report/result.ts': "export type R = import('../load/run.js').X;\n",
        'server/server.ts': "import * as lib from '../index.js';\nimport { gone } from './missing.js';\n",
        'cli/main.ts': "import { handle } from '../api/api.js';\nexport const main = 1;\n",
        'index.ts': "export { handle } from './api/api.js';\nexport { main } from './cli/main.js';\n",
        'widgets/w.ts': "import { x } from '../lib/random.js';\n",
      },
      violationsIn,
    );
    expect(found.sort()).toEqual([
      'api/api.ts -> ../cli/main.js: nothing imports cli/',
      'contract/ops.ts -> ../lib/random.js: contract/ may not import lib/',
      'index.ts -> ./cli/main.js: nothing imports cli/',
      'lib/random.ts -> node:fs: lib/ imports no node builtin',
      'lib/random.ts -> path: lib/ imports no node builtin',
      'load/run.ts -> ../sim/sim.js: load/ may not import sim/',
      'report/result.ts -> ../load/run.js: report/ may not import load/',
      'server/server.ts -> ../index.js: nothing imports index.ts',
      'server/server.ts -> ./missing.js: names no file',
      'sim/sim.ts -> ../api/api.js: sim/ may not import api/',
      'widgets/w.ts -> ../lib/random.js: widgets/ is not in the table of docs/architecture.md',
    ]);
  });

  it('finds circles through type-only imports, re-exports and multi-line imports', () => {
    const circles = withTree(
      {
        'a.ts': "import type { B } from './b.js';\nexport type A = B[];\n",
        'b.ts': "export { c } from './sub/c.js';\nexport type B = number;\n",
        'sub/c.ts': "import {\n  type A,\n} from '../a.js';\nexport const c = (x: A) => x;\n",
        'd.ts': "import { c } from './sub/c.js';\nexport const d = c;\n", // points in, not part of it
        'e.ts': "import './f.js';\n",
        'f.ts': "import './e';\n",
      },
      (root) => importCircles(importEdges(root)),
    );
    expect(circles).toEqual([
      ['a.ts', 'b.ts', 'sub/c.ts'],
      ['e.ts', 'f.ts'],
    ]);
  });
});

describe('src/', () => {
  const edges = importEdges(SRC);

  it('has imports to check', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'sim/simulator.ts', spec: '../lib/scheduler.js', to: 'lib/scheduler.ts' });
  });

  it('keeps to the folder table of docs/architecture.md', () => {
    expect(ruleViolations(edges, (rel) => fs.existsSync(path.join(SRC, rel)))).toEqual([]);
  });

  it('has no import circles between files', () => {
    expect(importCircles(edges).map((c) => `circle of ${c.length}: ${c.join(', ')}`)).toEqual([]);
  });
});
