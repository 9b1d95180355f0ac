/**
 * The repository's Dockerfile builds an image whose entry point is the CLI, running as a non-root
 * user. Needs Docker (`docker` on PATH and a daemon answering). Without it the test is skipped
 * with the reason, CI=true included: the Docker image is the one component CI cannot start (its
 * runner has no Docker daemon; docs/ci.md), so a change to the Dockerfile is checked by hand:
 *   docker build -t loadlab . && docker run --rm loadlab run scenarios/ci-gate.yaml --out /tmp/r
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';

function dockerMissing(): string | undefined {
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) return `docker is not on PATH (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.status !== 0) return `the Docker daemon does not answer: ${(r.stderr || r.stdout).trim().split('\n').pop()}`;
  return undefined;
}

const missing = dockerMissing();
const TAG = 'loadlab-dockerfile-test:latest';

/** The skip message: what is missing, and that the image is not checked here. */
const SKIPPED = (why: string) => `Docker image not built or run: ${why} (CI has no Docker daemon either; see docs/ci.md)`;

describe('Dockerfile', () => {
  test('builds, runs the CLI as uid 1000 and runs a scenario on the embedded simulator', (ctx) => {
    if (missing !== undefined) ctx.skip(SKIPPED(missing));
    const build = spawnSync('docker', ['build', '-t', TAG, '.'], { encoding: 'utf8', timeout: 900_000 });
    expect(build.status, build.stderr.slice(-3000)).toBe(0);
    const user = spawnSync('docker', ['run', '--rm', '--entrypoint', 'id', TAG, '-u'], { encoding: 'utf8', timeout: 60_000 });
    expect(user.stdout.trim()).toBe('1000');
    const help = spawnSync('docker', ['run', '--rm', TAG, 'k8s', '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/k8s run <scenario>/);
    const run = spawnSync('docker', ['run', '--rm', TAG, 'run', 'scenarios/ci-gate.yaml', '--out', '/tmp/r'], { encoding: 'utf8', timeout: 300_000 });
    expect([0, 99], run.stderr).toContain(run.status);
    expect(run.stdout).toMatch(/loadlab run ci-gate/);
  }, 1_200_000);
});
