/**
 * uPlot's minified JS and CSS, read from the installed package when first needed, so report.html
 * carries its own copy (one file, no network) and the same result gives the same bytes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let cached: { js: string; css: string } | undefined;

export function uplotAssets(): { js: string; css: string } {
  cached ??= {
    js: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    css: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
  return cached;
}
