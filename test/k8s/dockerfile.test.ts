/**
 * The repository's Dockerfile builds an image whose entry point is the CLI, running as a non-root
 * user. Needs Docker (`docker` on PATH and a daemon answering); skipped with the reason otherwise,
 * CI included: Docker is not among the components CI provides.
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

describe.skipIf(missing !== undefined)(`Dockerfile${missing ? ` (skipped: ${missing})` : ''}`, () => {
  test('builds, runs the CLI as uid 1000 and runs a scenario on the embedded simulator', () => {
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
