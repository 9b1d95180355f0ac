/**
 * The setup the calibrate tests share: `loadlab serve --config KNOWN` in real time standing in for
 * the user's endpoint, and one `loadlab run KNOWN --target` against it with /health read every
 * 100 ms, into a fresh temporary directory; serve stopped and the directory removed after the
 * file's tests.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.js';

/** The built CLI in a child process (2 minutes at most). */
export function loadlab(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', timeout: 120_000 });
}

/**
 * Registers the file's beforeAll and afterAll; `dir`: the temporary directory (named from `prefix`), `runDir`: the run's, `dir/name`.
 * `target`: the run's --target from serve's `/v2` URL (default: serve's root).
 */
export function probeRun(
  known: string,
  prefix: string,
  name: string,
  target: (base: string) => string = (base) => base.replace(/\/v2$/, ''),
): { dir: string; runDir: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const runDir = join(dir, name);
  let serve: ServeProcess | undefined;
  beforeAll(async () => {
    serve = await startServe(['--config', known]);
    const run = loadlab(['run', known, '--target', target(serve.base), '--health-every', '100ms', '--out', runDir]);
    expect(run.status, run.stderr).toBe(0);
  }, 120_000);
  afterAll(() => {
    serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, runDir };
}
