#!/usr/bin/env node
// Entry point: the CLI is compiled to dist/ by `npm run build` (run by `prepare` on install).
// A command that simulates starts again with a larger young generation (cli/young-generation.ts).
import { fileURLToPath } from 'node:url';
import { relaunch, relaunchFlags, watchParent } from '../dist/src/cli/young-generation.js';

const argv = process.argv.slice(2);
const flags = relaunchFlags(argv, process.execArgv, process.env.NODE_OPTIONS);
if (flags) {
  process.exitCode = await relaunch(fileURLToPath(import.meta.url), argv, flags);
} else {
  watchParent();
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(argv);
}
