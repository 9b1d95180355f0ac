/**
 * grafana/docker-compose.yml, read as Docker Compose would: it parses, every host path it mounts
 * exists, images are pinned, and the mounts put the provisioning and dashboards where the
 * provisioning files and Grafana's home-dashboard setting look for them. grafana/backfill.sh is an
 * executable shell script with valid syntax.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GRAFANA } from './dashboard-files.js';

interface Service {
  image: string;
  volumes?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  extra_hosts?: string[];
}
const compose = parse(readFileSync(join(GRAFANA, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service>; volumes?: Record<string, unknown> };

/** `host:container[:ro]` of a service; host paths start with `.` or `/`, the rest are named volumes. */
function mounts(s: Service) {
  return (s.volumes ?? []).map((v) => {
    const [host, container, mode] = v.split(':');
    return { host: host!, container: container!, readOnly: mode === 'ro', bind: /^[./]/.test(host!) };
  });
}

describe('grafana/docker-compose.yml', () => {
  it('runs Prometheus and Grafana from pinned images on ports 9090 and 3000', () => {
    const { prometheus, grafana } = compose.services;
    expect(prometheus?.image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/);
    expect(grafana?.image).toMatch(/^grafana\/grafana:\d+\.\d+\.\d+$/);
    expect(prometheus?.ports).toEqual(['127.0.0.1:9090:9090']);
    expect(grafana?.ports).toEqual(['127.0.0.1:3000:3000']);
    expect(prometheus?.extra_hosts).toContain('host.docker.internal:host-gateway');
  });

  it('mounts only host paths that exist, read-only, and declares its named volumes', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      for (const m of mounts(s)) {
        if (m.bind) {
          expect(existsSync(resolve(GRAFANA, m.host)), `${name}: ${m.host} does not exist`).toBe(true);
          expect(m.readOnly, `${name}: ${m.host} is not mounted read-only`).toBe(true);
        } else {
          expect(compose.volumes, `${name}: volume ${m.host}`).toHaveProperty(m.host);
        }
      }
    }
  });

  it('mounts the provisioning and dashboards where Grafana and the provider look', () => {
    const g = mounts(compose.services.grafana!);
    const at = (host: string) => g.find((m) => m.host === host)?.container;
    expect(at('./provisioning')).toBe('/etc/grafana/provisioning');
    const provider = parse(readFileSync(join(GRAFANA, 'provisioning', 'dashboards', 'loadlab.yaml'), 'utf8')) as { providers: { options: { path: string } }[] };
    expect(at('./dashboards')).toBe(provider.providers[0]!.options.path);
    const home = compose.services.grafana!.environment!.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH!;
    expect(home.startsWith(`${at('./dashboards')}/`)).toBe(true);
    expect(existsSync(join(GRAFANA, 'dashboards', home.slice(at('./dashboards')!.length + 1)))).toBe(true);
    const p = mounts(compose.services.prometheus!);
    expect(p.find((m) => m.host === './prometheus.yml')?.container).toBe('/etc/prometheus/prometheus.yml');
  });

  it('backfill.sh is executable, valid sh, and refuses a missing file with exit 2', () => {
    const script = join(GRAFANA, 'backfill.sh');
    accessSync(script, constants.X_OK);
    expect(spawnSync('sh', ['-n', script]).status).toBe(0);
    const r = spawnSync(script, [join(GRAFANA, 'no-such.om')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage: grafana\/backfill\.sh/);
  });
});
