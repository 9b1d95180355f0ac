/**
 * loadlab as another repository's dev dependency: `npm pack` of this checkout (dist/ as the tests'
 * global setup built it; `--ignore-scripts`, so that packing does not rebuild dist/ under the
 * other test files), installed into an empty project, where `npx loadlab run` runs that project's
 * own scenario. The report is written there, and report.html has its charts: uPlot is found in
 * the project's node_modules, not in this checkout; `import('loadlab')` there is the installed dist/.
 *
 * The install is `npm ci --prefer-offline` against a lockfile that pins the tarball and, for its
 * dependencies, the versions this checkout's package-lock.json pins (what a project's lockfile
 * holds once it installed the tarball). Those tarballs are in npm's cache after this checkout's
 * own `npm ci`, so the install needs no network. A plain `npm install ./loadlab-x.y.z.tgz` would
 * also fetch the registry's package metadata, which npm's cache does not keep offline.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const repo = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'loadlab-installed-'));
const project = join(dir, 'project');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface PackJson {
  filename: string;
  files: { path: string }[];
}
interface LockEntry {
  dev?: boolean;
  [k: string]: unknown;
}

/** npm with this test's cache and without the settings of the npm that started vitest (npm_config_*). */
function npm(args: string[], cwd: string, cmd = 'npm'): SpawnSyncReturns<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...env, CI: 'true' }, timeout: 150_000 });
}

let packed: PackJson;

beforeAll(() => {
  const r = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], repo);
  expect(r.status, r.stderr).toBe(0);
  packed = (JSON.parse(r.stdout) as PackJson[])[0]!;
});

describe('the packed package', () => {
  test('carries the built CLI, its types, the scenario schema and the example scenarios; no sources or tests', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'bin/loadlab.js',
        'dist/src/cli/main.js',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/plan/sweep-worker.js',
        'schema/scenario.schema.json',
        'scenarios/ci-gate.yaml',
      ]),
    );
    expect(files.filter((f) => /^(src|test|bench|dist\/bench|dist\/test)\//.test(f) || f.endsWith('.tsbuildinfo'))).toEqual([]);
  });

  test("carries the MIT licence package.json names, the repository's LICENSE byte for byte", () => {
    expect(packed.files.map((f) => f.path)).toContain('LICENSE');
    expect((JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { license: string }).license).toBe('MIT');
    // The file inside the tarball, as an installing project gets it.
    const r = spawnSync('tar', ['-xzOf', join(dir, packed.filename), 'package/LICENSE'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(repo, 'LICENSE'), 'utf8'));
    expect(r.stdout).toMatch(/^MIT License\n\nCopyright \(c\) 2026 loadlab contributors\n/);
  });

  test('installs into an empty project, where `npx loadlab run` runs its own scenario and writes report.html with charts', () => {
    const tarball = packed.filename;
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as Record<string, any>;
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
    const spec = `file:../${tarball}`;
    const packages: Record<string, LockEntry> = {
      '': { name: 'project', devDependencies: { loadlab: spec } },
      'node_modules/loadlab': {
        version: pkg.version,
        resolved: spec,
        integrity: `sha512-${createHash('sha512')
          .update(readFileSync(join(dir, tarball)))
          .digest('base64')}`,
        dev: true,
        license: pkg.license,
        dependencies: pkg.dependencies,
        bin: pkg.bin,
        engines: pkg.engines,
      },
    };
    for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev) packages[path] = { ...entry, dev: true };
    mkdirSync(join(project, 'scenarios'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', private: true, devDependencies: { loadlab: spec } }, null, 2));
    writeFileSync(join(project, 'package-lock.json'), JSON.stringify({ name: 'project', lockfileVersion: 3, requires: true, packages }, null, 2));
    writeFileSync(
      join(project, 'scenarios', 'mine.yaml'),
      [
        '$schema: ../node_modules/loadlab/schema/scenario.schema.json',
        'name: mine',
        'durationMs: 20000',
        'endpoint: { id: mine, workersMax: 2, jobDurationMs: { dist: constant, ms: 300 } }',
        'traffic:',
        '  - name: sync',
        '    arrival: { process: poisson, ratePerSec: 1 }',
        '    client: { behaviour: runsync, waitMs: 30000 }',
        'thresholds: [jobs_failed == 0]',
        '',
      ].join('\n'),
    );

    const install = npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], project);
    expect(install.status, install.stderr).toBe(0);
    expect(existsSync(join(project, 'node_modules', 'loadlab', 'schema', 'scenario.schema.json'))).toBe(true);

    // --no: never fetch a package of that name from the registry; the installed one or nothing.
    const run = npm(['--no', 'loadlab', 'run', 'scenarios/mine.yaml', '--out', 'reports/x'], project, 'npx');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/loadlab run mine/);
    const report = JSON.parse(readFileSync(join(project, 'reports', 'x', 'report.json'), 'utf8')) as { scenario: { name: string } };
    expect(report.scenario.name).toBe('mine');
    const html = readFileSync(join(project, 'reports', 'x', 'report.html'), 'utf8');
    expect(html).toMatch(/<script id="uplot-js">[^<]*uPlot/);
    expect(html).toContain('<figure class="chart"');

    // The library entry, imported by name from the project: the installed dist/ and its types.
    const lib = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('loadlab'); console.log(import.meta.resolve('loadlab'), typeof m.runScenario)"],
      { cwd: project, encoding: 'utf8', timeout: 30_000 },
    );
    expect(lib.stdout.trim(), lib.stderr).toBe(
      `${pathToFileURL(realpathSync(join(project, 'node_modules', 'loadlab', 'dist', 'src', 'index.js'))).href} function`,
    );
    expect(existsSync(join(project, 'node_modules', 'loadlab', 'dist', 'src', 'index.d.ts'))).toBe(true);
  }, 180_000);
});

test('a bin without its dist/ (a git install whose build did not run) says so and how to fix it, exit 1', () => {
  const bare = join(dir, 'bare');
  mkdirSync(join(bare, 'bin'), { recursive: true });
  copyFileSync(join(repo, 'bin', 'loadlab.js'), join(bare, 'bin', 'loadlab.js'));
  writeFileSync(join(bare, 'package.json'), '{"type":"module"}');
  const r = spawnSync(process.execPath, [join(bare, 'bin', 'loadlab.js'), 'run', 'x.yaml'], { encoding: 'utf8', timeout: 30_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`loadlab is not built: ${join(bare, 'dist', 'src', 'cli', 'main.js')} is missing`);
  expect(r.stderr).toContain('"allowScripts": { "loadlab": true }');
});
