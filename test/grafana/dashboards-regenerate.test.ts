/**
 * `npm run dashboards` reproduces the checked-in grafana/dashboards/*.json byte for byte: the same
 * compile (grafana/tsconfig.json) and entry point, written into a temp folder instead of the repo.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DASHBOARDS, dashboardFiles, GRAFANA, REPO } from './dashboard-files.js';

const work = mkdtempSync(join(tmpdir(), 'loadlab-dashboards-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { cwd: REPO, encoding: 'utf8' });
  expect(r.status, `${cmd} ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
}

describe('npm run dashboards', () => {
  it('regenerates the checked-in JSON without a diff, and the same bytes twice', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dashboards).toBe('tsc -p grafana/tsconfig.json && node dist/grafana/src/main.js');
    // The script's own steps, with the output redirected: tsc into a temp dist, main.js into temp folders.
    const dist = join(work, 'dist');
    run(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', join(GRAFANA, 'tsconfig.json'), '--outDir', dist]);
    for (const out of ['a', 'b']) run(process.execPath, [join(dist, 'grafana', 'src', 'main.js'), join(work, out)]);

    const files = dashboardFiles();
    expect(files).toEqual(['loadlab-run.json', 'loadlab-simulator.json']);
    expect(readdirSync(join(work, 'a')).sort()).toEqual(files);
    for (const f of files) {
      const fresh = readFileSync(join(work, 'a', f), 'utf8');
      expect(readFileSync(join(work, 'b', f), 'utf8'), `${f}: a second run differs`).toBe(fresh);
      expect(readFileSync(join(DASHBOARDS, f), 'utf8'), `grafana/dashboards/${f} is stale: run npm run dashboards`).toBe(fresh);
    }
  });
});
