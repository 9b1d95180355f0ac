/**
 * Builds dist/ once before any test file runs: several suites spawn the real CLI
 * (`node bin/loadlab.js …`), and building from each file at once would race on the same outputs.
 * Type errors fail `npm test` earlier, in `tsc --noEmit`.
 */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
