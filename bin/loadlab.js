#!/usr/bin/env node
// Entry point: the CLI is compiled to dist/ (`npm run build`; `prepare` builds it in a checkout
// and in an install from a git URL; a packed tarball carries it built).
// A command that simulates starts again with a larger young generation (cli/young-generation.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/src/cli/', import.meta.url);
if (!existsSync(new URL('main.js', cli))) {
  console.error(
    `loadlab is not built: ${fileURLToPath(new URL('main.js', cli))} is missing.\n` +
      '  In a checkout of loadlab: npm install (or npm run build).\n' +
      "  Installed from a git URL: npm builds it with loadlab's prepare script, which an npm that blocks\n" +
      '  dependency install scripts runs only when package.json allows it: "allowScripts": { "loadlab": true },\n' +
      '  then npm install again. A packed tarball (npm pack) carries dist/ built and needs no script.',
  );
  process.exit(1);
}
const { relaunch, relaunchFlags, watchParent } = await import('../dist/src/cli/young-generation.js');

const argv = process.argv.slice(2);
const flags = relaunchFlags(argv, process.execArgv, process.env.NODE_OPTIONS);
if (flags) {
  process.exitCode = await relaunch(fileURLToPath(import.meta.url), argv, flags);
} else {
  watchParent();
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(argv);
}
