/**
 * examples/github-actions.yml, the workflow of a repository that has loadlab as a dev dependency:
 * valid YAML; its `loadlab run` step, run as written in such a project (its own scenario under
 * scenarios/, npx loadlab → the built CLI) with GitHub's step-summary file, passes and leaves what
 * the later steps upload and publish; every `npx loadlab <command>` it names is a command.
 * (That the package installs and runs in another project: test/cli/installed-package.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { cliBatch } from '../helpers/cli-batch.js';

const repo = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'loadlab-ci-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}
const text = readFileSync(join(repo, 'examples', 'github-actions.yml'), 'utf8');

test("the example workflow: setup-node 20, npm ci, the loadlab step passes on the project's scenario, its report and JUnit are there", () => {
  const wf = parse(text) as { jobs: Record<string, { steps: Step[] }> };
  const steps = Object.values(wf.jobs)[0]!.steps;
  expect(steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['node-version']).toBe(20);
  expect(steps.some((s) => s.run === 'npm ci')).toBe(true);
  const cmd = steps.find((s) => s.run?.startsWith('npx loadlab run'))!.run!;
  const args = cmd.replace(/^npx loadlab /, '').split(/\s+/);
  // The project's own scenario: ci-gate.yaml copied where the workflow's comment says.
  mkdirSync(join(dir, 'scenarios'));
  copyFileSync(join(repo, 'scenarios', 'ci-gate.yaml'), join(dir, args[1]!));
  const summary = join(dir, 'step-summary.md');
  const r = spawnSync(process.execPath, [join(repo, 'bin', 'loadlab.js'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: summary },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const uploaded = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!.with!.path!;
  expect(existsSync(join(dir, uploaded, 'report.md'))).toBe(true);
  const junit = steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))!.with!.report_paths!;
  expect(readFileSync(join(dir, junit), 'utf8')).toContain('name="run is valid"');
  expect(readFileSync(summary, 'utf8')).toMatch(/^### loadlab run ci-gate: PASS/);
});

test('the example installs loadlab pinned (a tag or a tarball), and every `npx loadlab <command>` in it is a command', () => {
  const installs = [...text.matchAll(/npm install --save-dev (\S+)/g)].map((m) => m[1]!);
  expect(installs.length).toBeGreaterThan(0);
  for (const spec of installs) expect(spec).toMatch(/^github:[^/]+\/loadlab#v\S+$|\/loadlab-\S+\.tgz$/);
  const commands = [...new Set([...text.matchAll(/npx loadlab (\w+)/g)].map((m) => m[1]!))];
  expect(commands).toContain('run');
  const helps = cliBatch(commands.map((c) => ({ args: [c, '--help'] })));
  // An unknown command's --help is the general help ("loadlab <command> [options]"), not its own.
  helps.forEach((h, i) => {
    expect(h.status, `npx loadlab ${commands[i]}: ${h.stderr}`).toBe(0);
    expect(h.stdout.split('\n')[0], `npx loadlab ${commands[i]} is not a command`).toMatch(new RegExp(`^loadlab ${commands[i]}\\b`));
  });
});
