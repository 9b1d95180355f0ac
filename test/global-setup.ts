/**
 * Builds dist/ once before any test file runs: several suites spawn the real CLI
 * (`node bin/loadlab.js …`), and building from each file at once would race on the same outputs.
 * Type errors fail `npm test` earlier, in `tsc --noEmit`.
 *
 * Not from scratch each time (~15 s of CPU): skipped when a full build (npm install's `prepare`,
 * `npm run build`) left an output newer than each source and config, or when nothing changed since
 * this setup's own last build; else incremental, with a record of its own (RECORD), ~4 s when
 * little changed. The record is dropped, and the build made whole, when something else wrote
 * dist/ after it (`npm run build`, an older checkout's build): it would take those outputs for
 * its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const RECORD = join('dist', 'tests-build.tsbuildinfo');
/** What tsconfig.build.json compiles, and what decides how. */
const SOURCE_DIRS = ['src', 'bench'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

function filesIn(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(dir, f));
}

const mtime = (f: string): number => statSync(f).mtimeMs;

/** Every source's output exists and is newer than it and than every config. */
function builtFromSources(sources: string[]): boolean {
  const configs = Math.max(...CONFIGS.map(mtime));
  return sources.every((s) => {
    const out = join('dist', relative('.', s)).replace(/\.ts$/, '.js');
    return existsSync(out) && mtime(out) >= Math.max(mtime(s), configs);
  });
}

export default function setup(): void {
  const sources = SOURCE_DIRS.flatMap((d) => filesIn(d, '.ts')).filter((f) => !f.endsWith('.d.ts'));
  const outputs = SOURCE_DIRS.flatMap((d) => filesIn(join('dist', d), '.js'));
  const recordAt = existsSync(RECORD) ? mtime(RECORD) : -Infinity;
  const writtenSince = outputs.some((o) => mtime(o) > recordAt);
  if (writtenSince) {
    if (builtFromSources(sources)) return;
    rmSync(RECORD, { force: true });
  } else if ([...sources, ...CONFIGS].every((f) => mtime(f) <= recordAt)) {
    return; // this setup's own last build, and nothing changed since
  }
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', RECORD], { stdio: 'inherit' });
}
