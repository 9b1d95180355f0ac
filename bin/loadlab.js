#!/usr/bin/env node
// Entry point: the CLI is compiled to dist/ by `npm run build` (run by `prepare` on install).
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
