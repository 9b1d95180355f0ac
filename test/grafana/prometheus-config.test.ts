/**
 * grafana/prometheus.yml is a valid Prometheus configuration (promtool, a real Prometheus tool),
 * scrapes `loadlab serve` and a live runner, and agrees with the data source's timeInterval, which
 * Grafana's $__rate_interval is computed from. Without promtool the check is skipped, except
 * under CI=true where that is a failure.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GRAFANA } from './dashboard-files.js';

const CONFIG = join(GRAFANA, 'prometheus.yml');
const hasPromtool = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).status === 0;
if (!hasPromtool && process.env.CI === 'true')
  throw new Error('promtool is missing: under CI the Prometheus config check needs it (Debian: apt-get install prometheus)');

interface PromConfig {
  global: { scrape_interval: string };
  scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
}

describe('grafana/prometheus.yml', () => {
  it.skipIf(!hasPromtool)('passes promtool check config (skipped: promtool not installed)', () => {
    const r = spawnSync('promtool', ['check', 'config', CONFIG], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS/);
  });

  it('scrapes loadlab serve on 8080 and the live runner on 9464 on the Docker host', () => {
    const c = parse(readFileSync(CONFIG, 'utf8')) as PromConfig;
    const targets = Object.fromEntries(c.scrape_configs.map((s) => [s.job_name, s.static_configs.flatMap((x) => x.targets)]));
    expect(targets).toEqual({ 'loadlab-serve': ['host.docker.internal:8080'], 'loadlab-run': ['host.docker.internal:9464'] });
  });

  it('scrapes at the interval the Grafana data source declares', () => {
    const c = parse(readFileSync(CONFIG, 'utf8')) as PromConfig;
    const ds = parse(readFileSync(join(GRAFANA, 'provisioning', 'datasources', 'prometheus.yaml'), 'utf8')) as {
      datasources: { jsonData: { timeInterval: string } }[];
    };
    expect(ds.datasources[0]!.jsonData.timeInterval).toBe(c.global.scrape_interval);
  });
});
