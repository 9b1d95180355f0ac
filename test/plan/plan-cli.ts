/** Runs `node bin/loadlab.js plan …` (the built CLI) and reads what it wrote. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliBatch, type CliResult } from '../helpers/cli-batch.js';

export function plan(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  return spawnSync('node', ['bin/loadlab.js', 'plan', ...args], { encoding: 'utf8', env, timeout: 170_000 });
}

/** `plan(args)` for each, in order, in one child process (test/helpers/cli-batch.ts). */
export function plans(...lines: string[][]): CliResult[] {
  return cliBatch(lines.map((args) => ({ args: ['plan', ...args] })));
}

export const planJson = (dir: string) => readFileSync(join(dir, 'plan.json'), 'utf8');
export const planMd = (dir: string) => readFileSync(join(dir, 'plan.md'), 'utf8');
