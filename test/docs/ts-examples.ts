/**
 * The README's TypeScript examples, type-checked and run against the build, with `from 'loadlab'`
 * pointed at the package's entry point (dist/src/index.js, what `exports` names): its declarations
 * (dist/src/index.d.ts, the types a user of the package gets) for the type check, its code to run.
 * The global setup builds dist/ from the sources first. (Checking against src/ instead costs ~12 s
 * of CPU: the whole source tree; the declarations, ~3 s.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Where `from 'loadlab'` goes: the built entry, by path for the type check (its .d.ts), by URL to run. */
function entryPoints(repo: string): { source: string; built: string } {
  return { source: join(repo, 'dist', 'src', 'index.js'), built: pathToFileURL(join(repo, 'dist', 'src', 'index.js')).href };
}

const FROM_LOADLAB = /from '(loadlab)'/g;

/** Type errors of the examples, formatted; empty when they all check. */
export function typeCheck(examples: readonly string[], repo: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const { source } = entryPoints(repo);
  const files = examples.map((code, n) => {
    const f = join(dir, `example-${n}.mts`);
    writeFileSync(f, code.replace(FROM_LOADLAB, `from '${source}'`));
    return f;
  });
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [join(repo, 'node_modules', '@types')],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
  });
  const diags = ts.getPreEmitDiagnostics(program);
  return ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' });
}

export interface ExampleRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Transpiles each example and runs it with node, in `cwd`, one after another. */
export function runExamples(examples: readonly string[], repo: string, dir: string, cwd: string): ExampleRun[] {
  mkdirSync(dir, { recursive: true });
  const { built } = entryPoints(repo);
  return examples.map((code, n) => {
    const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const f = join(dir, `example-${n}.mjs`);
    writeFileSync(f, js.replace(FROM_LOADLAB, `from '${built}'`));
    const r = spawnSync('node', [f], { cwd, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  });
}
