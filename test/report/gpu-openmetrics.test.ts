/**
 * metrics.om and report.html of a run whose endpoint lists its GPU types: the workers on each type
 * over time (`loadlab_client_endpoint_workers_by_gpu{gpu, state}`, per window) and each type's
 * worker-seconds and billed seconds at the end (`loadlab_client_gpu_worker_seconds`,
 * `loadlab_client_gpu_worker_billed_seconds`), beside the unchanged families; the strict reader and
 * promtool (create-blocks-from openmetrics) accept the file. A run without gpus has none of them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CLIENT_METRIC } from '../../src/contract/metric-names.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';
import { PRICE_BOOK_2026 } from '../../src/report/prices.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import { parseOpenMetrics, type OmFamily } from './openmetrics-check.js';
import { twoColdJobs } from '../helpers/two-cold-jobs.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-gpu-om-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const START = Date.UTC(2024, 4, 1, 12);

const scenario = (gpus: boolean) => scenarioSchema.parse(twoColdJobs('gpu-om', gpus ? { gpus: ['H100-PRO', 'A100'], hostCapacity: { 'H100-PRO': 1 } } : {}));

const prices = {
  ...PRICE_BOOK_2026.gpus['H100-PRO']!,
  gpu: 'H100-PRO',
  byGpu: { 'H100-PRO': PRICE_BOOK_2026.gpus['H100-PRO']!, A100: PRICE_BOOK_2026.gpus.A100! },
};
const fam = (fams: OmFamily[], name: string) => fams.find((f) => f.name === name);
/** The family's last value per `gpu state` (or `gpu billing`). */
const last = (f: OmFamily, key: string) => {
  const out: Record<string, number> = {};
  for (const s of f.samples) out[`${s.labels.gpu} ${s.labels[key]}`] = s.value;
  return out;
};

describe('metrics.om of an endpoint with gpus', () => {
  test('workers by GPU type per window, seconds and billed seconds per type at the end; promtool reads it', async () => {
    const r = await runScenario(scenario(true), { prices });
    const om = renderOpenMetrics(r, START);
    const fams = parseOpenMetrics(om);
    const byGpu = fam(fams, CLIENT_METRIC.endpointWorkersByGpu)!;
    expect(byGpu.type).toBe('gauge');
    // Window 0 (0–10 s): the H100-PRO worker initializing throughout, the A100 one from 1 s.
    const w0 = byGpu.samples.filter((s) => s.ms === START + 10_000 && s.labels.state === 'initializing');
    expect(Object.fromEntries(w0.map((s) => [s.labels.gpu, s.value]))).toEqual({ 'H100-PRO': 1, A100: 0.9 });
    expect(byGpu.samples.every((s) => s.labels.endpoint === 'cold' && s.labels.scenario === 'gpu-om')).toBe(true);
    // The existing family keeps its labels: state only.
    expect(Object.keys(fam(fams, CLIENT_METRIC.endpointWorkers)!.samples[0]!.labels).sort()).toEqual(['endpoint', 'scenario', 'state']);

    const secs = fam(fams, CLIENT_METRIC.gpuWorkerSeconds)!;
    expect(secs.type).toBe('counter');
    expect(last(secs, 'state')).toMatchObject({ 'H100-PRO running': 2, 'A100 running': 2, 'H100-PRO initializing': 10, 'A100 initializing': 10 });
    const billed = fam(fams, CLIENT_METRIC.gpuWorkerBilledSeconds)!;
    expect(last(billed, 'billing')).toEqual({ 'H100-PRO flex': 7, 'H100-PRO active': 0, 'A100 flex': 7, 'A100 active': 0 });

    const promtool = (...args: string[]) => spawnSync('promtool', args, { encoding: 'utf8', timeout: 60_000 });
    if (promtool('--version').error) {
      if (process.env.CI === 'true') throw new Error('promtool is not on PATH; CI=true needs it');
      return;
    }
    const file = join(dir, 'metrics.om');
    writeFileSync(file, om);
    const created = promtool('tsdb', 'create-blocks-from', 'openmetrics', file, join(dir, 'tsdb'));
    expect(created.status, `${created.stdout}${created.stderr}`).toBe(0);
  });

  test('report.html charts the workers by GPU type', async () => {
    const html = renderHtml(await runScenario(scenario(true), { prices }));
    expect(html).toContain('Workers by GPU type');
    expect(html).toContain('H100-PRO running');
  });

  test('without gpus: none of the GPU families, no GPU chart', async () => {
    const r = await runScenario(scenario(false));
    const names = parseOpenMetrics(renderOpenMetrics(r, START)).map((f) => f.name);
    for (const n of [CLIENT_METRIC.endpointWorkersByGpu, CLIENT_METRIC.gpuWorkerSeconds, CLIENT_METRIC.gpuWorkerBilledSeconds]) expect(names).not.toContain(n);
    expect(names).toContain(CLIENT_METRIC.endpointWorkers);
    expect(renderHtml(r)).not.toContain('Workers by GPU type');
  });
});
