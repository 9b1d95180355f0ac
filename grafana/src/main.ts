/**
 * `npm run dashboards`: regenerates grafana/dashboards/*.json from the TypeScript beside this file.
 * Usage (after `tsc -p grafana/tsconfig.json`): node dist/grafana/src/main.js [OUT_DIR]
 * (default: grafana/dashboards of the package root).
 */
import { fileURLToPath } from 'node:url';
import { writeDashboards } from './write-dashboards.js';

const out = process.argv[2] ?? fileURLToPath(new URL('../../../grafana/dashboards', import.meta.url));
for (const f of writeDashboards(out)) console.log(`wrote ${f}`);
