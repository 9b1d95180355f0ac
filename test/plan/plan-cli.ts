/** Runs `node bin/loadlab.js plan …` (the built CLI) and reads what it wrote. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function plan(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  return spawnSync('node', ['bin/loadlab.js', 'plan', ...args], { encoding: 'utf8', env, timeout: 170_000 });
}

export const planJson = (dir: string) => readFileSync(join(dir, 'plan.json'), 'utf8');
export const planMd = (dir: string) => readFileSync(join(dir, 'plan.md'), 'utf8');
