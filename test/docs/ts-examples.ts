/**
 * The README's TypeScript examples, type-checked against the sources and run against the build,
 * with `from 'loadlab'` pointed at the package's entry point.
 *
 * The entry point is `src/index.ts` (dist/src/index.js once built). Until it exists, a stand-in
 * re-exports the same names from the files that define them (LOADLAB_EXPORTS); drop the
 * stand-in once src/index.ts is in the tree.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The public names, by the module (under src/, without extension) that defines them. */
const LOADLAB_EXPORTS: Record<string, { values: string[]; types: string[] }> = {
  'sim/simulator': { values: ['Simulator'], types: [] },
  'api/api': { values: ['Api'], types: [] },
  'sim/config': { values: ['parseSimConfig', 'endpointConfig', 'OPERATIONS', 'DEFAULT_LIMITS'], types: ['SimConfig', 'SimConfigInput', 'EndpointConfig', 'Operation'] },
  'load/run-scenario': { values: ['runScenario'], types: ['RunOptions'] },
  'load/scenario-loader': { values: ['loadScenarioFile', 'parseScenario'], types: ['LoadResult'] },
  'load/scenario-schema': { values: [], types: ['Scenario'] },
  'report/run-result': { values: ['RUN_RESULT_VERSION'], types: ['RunResult'] },
  'report/render-json': { values: ['renderJson', 'parseRunResult'], types: [] },
  'report/render-md': { values: ['renderMarkdown'], types: [] },
  'report/render-html': { values: ['renderHtml'], types: [] },
  'report/render-junit': { values: ['renderJunit'], types: [] },
  'report/render-openmetrics': { values: ['renderOpenMetrics'], types: [] },
  'report/thresholds': { values: ['evaluateThresholds'], types: [] },
  'server/server': { values: ['startServer'], types: ['ServeOptions'] },
};

/** Where `from 'loadlab'` goes: a source file for the type check, a built file to run. */
function entryPoints(repo: string, dir: string): { source: string; built: string } {
  if (existsSync(join(repo, 'src', 'index.ts'))) {
    return { source: join(repo, 'src', 'index.js'), built: pathToFileURL(join(repo, 'dist', 'src', 'index.js')).href };
  }
  const lines = (toSpecifier: (mod: string) => string, withTypes: boolean) =>
    Object.entries(LOADLAB_EXPORTS).flatMap(([mod, { values, types }]) => [
      ...(values.length ? [`export { ${values.join(', ')} } from '${toSpecifier(mod)}';`] : []),
      ...(withTypes && types.length ? [`export type { ${types.join(', ')} } from '${toSpecifier(mod)}';`] : []),
    ]).join('\n');
  writeFileSync(join(dir, 'loadlab-entry.mts'), `${lines((m) => join(repo, 'src', `${m}.js`), true)}\n`);
  writeFileSync(join(dir, 'loadlab-entry.mjs'), `${lines((m) => pathToFileURL(join(repo, 'dist', 'src', `${m}.js`)).href, false)}\n`);
  return { source: join(dir, 'loadlab-entry.mjs'), built: pathToFileURL(join(dir, 'loadlab-entry.mjs')).href };
}

const FROM_LOADLAB = /from '(loadlab)'/g;

/** Type errors of the examples, formatted; empty when they all check. */
export function typeCheck(examples: readonly string[], repo: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const { source } = entryPoints(repo, dir);
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

export interface ExampleRun { status: number | null; stdout: string; stderr: string }

/** Transpiles each example and runs it with node, in `cwd`, one after another. */
export function runExamples(examples: readonly string[], repo: string, dir: string, cwd: string): ExampleRun[] {
  mkdirSync(dir, { recursive: true });
  const { built } = entryPoints(repo, dir);
  return examples.map((code, n) => {
    const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const f = join(dir, `example-${n}.mjs`);
    writeFileSync(f, js.replace(FROM_LOADLAB, `from '${built}'`));
    const r = spawnSync('node', [f], { cwd, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  });
}
