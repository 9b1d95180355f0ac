/**
 * examples/github-actions.yml: its `loadlab run` step, run as written (npx loadlab → the built
 * CLI) with GitHub's step-summary file, passes and leaves what the later steps upload and publish.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-ci-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Step { name?: string; run?: string; uses?: string; with?: Record<string, string> }

test('the example workflow: setup-node 20, npm ci, the loadlab step passes, its report and JUnit are there', () => {
  const wf = parse(readFileSync('examples/github-actions.yml', 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  const steps = Object.values(wf.jobs)[0]!.steps;
  expect(steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['node-version']).toBe(20);
  expect(steps.some((s) => s.run === 'npm ci')).toBe(true);
  const cmd = steps.find((s) => s.run?.startsWith('npx loadlab run'))!.run!;
  const args = cmd.replace(/^npx loadlab /, '').split(/\s+/).map((a) => (a.startsWith('reports/') ? join(dir, a) : a));
  const summary = join(dir, 'step-summary.md');
  const r = spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: summary }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const uploaded = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!.with!.path!;
  expect(existsSync(join(dir, uploaded, 'report.md'))).toBe(true);
  const junit = steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))!.with!.report_paths!;
  expect(readFileSync(join(dir, junit), 'utf8')).toContain('name="run is valid"');
  expect(readFileSync(summary, 'utf8')).toMatch(/^### loadlab run ci-gate: PASS/);
});
