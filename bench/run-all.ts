/**
 * `npm run bench`: runs every benchmark script in its own Node process (so each one's peak RSS
 * is its own) one after another, and prints what each printed. Scripts are the compiled
 * `dist/bench/*.js` files other than this one; `BENCH=name1,name2` picks some.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.env.BENCH?.split(',').filter(Boolean);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.js') && f !== 'run-all.js')
  .filter((f) => !only || only.some((o) => f.startsWith(o)))
  .sort();

let failed = 0;
for (const s of scripts) {
  console.log(`\n## ${s.replace(/\.js$/, '')}`);
  const r = spawnSync(process.execPath, ['--max-old-space-size=12288', join(here, s)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(exit ${r.status})`);
  }
}
process.exitCode = failed ? 1 : 0;
