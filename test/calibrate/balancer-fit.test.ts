/**
 * `loadlab calibrate` on a run against a load-balancing endpoint, in virtual time: the simulator
 * with a known endpoint (test/fixtures/calibrate-lb-known.yaml) seen as if at a URL
 * (test/helpers/as-if-at-url.ts: the run keeps RunResult.observed from the answers'
 * X-Runpod-Worker-Id and the requests' times), with and without /health. The CLI test
 * (test/cli/calibrate-lb.test.ts) does the same over HTTP in real time.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { calibrate } from '../../src/calibrate/calibration.js';
import { calibratedScenario } from '../../src/calibrate/calibrated-scenario.js';
import { renderCalibrationMarkdown } from '../../src/calibrate/render-calibration-md.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { loadScenarioFile, parseScenario } from '../../src/load/scenario/loader.js';
import type { ObservedEndpoint, RunResult } from '../../src/report/run-result.js';
import { asIfAtUrl } from '../helpers/as-if-at-url.js';

const KNOWN = 'test/fixtures/calibrate-lb-known.yaml';

async function observed(healthEveryMs: number, file = KNOWN): Promise<RunResult & { observed: ObservedEndpoint }> {
  const l = loadScenarioFile(file);
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return (await runScenario(l.scenario, { target: asIfAtUrl, healthEveryMs })) as RunResult & { observed: ObservedEndpoint };
}

const near = (got: number | undefined, want: number, tol: number) => expect(Math.abs(got! / want - 1), `${got} vs ${want}`).toBeLessThanOrEqual(tol);

describe('a load-balancing endpoint calibrated in virtual time', () => {
  it('keeps a row per worker its answers named, and every served request with its worker', async () => {
    const r = await observed(100);
    const o = r.observed;
    expect(o.executionMs.count).toBe(0);
    expect(o.workers.columns).toEqual(['firstSentMs', 'firstResponseMs', 'lastEndMs', 'jobs', 'firstHttp']);
    expect(o.balancer!.count).toBe(r.jobs.accepted);
    // Every request names a worker of the table, and the requests per worker add up.
    const perWorker = new Map<number, number>();
    for (const row of o.balancer!.rows) perWorker.set(row[3]!, (perWorker.get(row[3]!) ?? 0) + 1);
    expect(perWorker.has(-1)).toBe(false);
    expect(o.workers.rows.map((w, i) => [w[3], perWorker.get(i)])).toEqual(o.workers.rows.map((w) => [w[3], w[3]]));
    // A cold worker's first request waited for its start (300 ms median) and ran its job.
    const firsts = o.workers.rows.map((w) => w[1]!).sort((a, b) => a - b);
    expect(firsts[firsts.length >> 1]).toBeGreaterThan(300);
  });

  it('finds the job times, cold starts, workerConcurrency and workersMax, and writes a load-balancing scenario', async () => {
    const r = await observed(100);
    const fit = calibrate(r);
    const c = fit.calibration;
    near(c.jobDurationMs.p50, 150, 0.1);
    near(c.jobDurationMs.p95, 250, 0.15);
    expect(c.jobDurationMs.samples).toBeGreaterThanOrEqual(40);
    near(c.coldStartMs.p50, 300, 0.1);
    expect(c.coldStartMs.samples).toBeGreaterThanOrEqual(18);
    expect(c.workerConcurrency).toMatchObject({ value: 2, reached: true });
    expect(c.workersMax).toMatchObject({ value: 8, reached: true });
    // Its workers stop at their idle timeout (600 ms), seen within a /health period (100 ms).
    expect(Math.abs(c.idleTimeoutMs.value! - 600)).toBeLessThanOrEqual(100);
    expect(c.balancer).toMatchObject({ requests: 201, httpRequests: 201, jobTimes: c.jobDurationMs.samples });
    const yaml = parse(calibratedScenario(readFileSync(KNOWN, 'utf8'), c, 'run'));
    expect(yaml.endpoint).toMatchObject({ type: 'load-balancer', workerConcurrency: 2, scaler: { type: 'REQUEST_COUNT', value: 2 }, workersMax: 8 });
    expect(yaml.endpoint.jobDurationMs.dist).toBe('lognormal');
    const md = renderCalibrationMarkdown(fit);
    expect(md).toContain('a **load-balancing endpoint** (`type: load-balancer`)');
    expect(md).toContain('| scaler | REQUEST_COUNT | — | not measured | — |');
  });

  it('without /health: every first request is a cold start, every other request a job, and the notes say so', async () => {
    const r = await observed(0);
    const c = calibrate(r).calibration;
    expect(r.observed.health.rows).toEqual([]);
    expect(c.coldStartMs.note).toContain("no /health answers: every worker's first request counts");
    expect(c.coldStartMs.samples).toBe(r.observed.workers.rows.length);
    near(c.coldStartMs.p50, 300, 0.35);
    expect(c.jobDurationMs.note).toContain("every one but a worker's first: no /health answers");
    // Waits for a worker are in: the times run long (this probe keeps its workers full).
    expect(c.jobDurationMs.p50).toBeGreaterThan(150);
    expect(c.workersMax.value).toBeUndefined();
  });

  it('scenarios/calibrate-lb-probe.yaml against its own stand-in endpoint: a clean cold start a minute, and the job times', async () => {
    const c = calibrate(await observed(1000, 'scenarios/calibrate-lb-probe.yaml')).calibration;
    near(c.coldStartMs.p50, 8000, 0.2);
    // One a minute for 20 min, each after the workers' idle timeout (5 s): 20 clean cold starts.
    expect(c.coldStartMs.samples).toBeGreaterThanOrEqual(20);
    expect(c.coldStartMs.trusted).toBe(true);
    near(c.jobDurationMs.p50, 2000, 0.2);
    expect(c.jobDurationMs.trusted).toBe(true);
  });

  it('streamed chat answers of a load-balancing endpoint land in observed.streams, and its requests with their workers', async () => {
    const l = parseScenario(
      {
        name: 'lb-chat',
        seed: 2,
        durationMs: 20_000,
        drainMs: 10_000,
        endpoint: {
          id: 'lbc',
          type: 'load-balancer',
          workersMax: 2,
          workerConcurrency: 4,
          coldStartMs: 500,
          llm: { ttftMs: 100, interTokenMs: 10, outputTokens: 20 },
        },
        traffic: [{ name: 'chat', arrival: { process: 'poisson', ratePerSec: 2 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 64 } }],
      },
      'lb-chat.yaml',
    );
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = (await runScenario(l.scenario, { target: asIfAtUrl, healthEveryMs: 500 })) as RunResult & { observed: ObservedEndpoint };
    const o = r.observed;
    expect(o.streams!.count).toBe(r.jobs.accepted);
    expect(o.balancer!.count).toBe(r.jobs.accepted);
    expect(o.balancer!.rows.every((row) => row[4] === 0 && row[3]! >= 0)).toBe(true);
    // A stream's time to response is its first content chunk: the TTFT, a cold start for a worker's first.
    const warm = o.balancer!.rows.filter((row) => !o.workers.rows.some((w) => w[0] === row[0])).map((row) => row[1]!);
    expect(Math.min(...warm)).toBeGreaterThanOrEqual(100);
    // Most workers' first request waited for their start (500 ms); a worker started for a request
    // that another worker took first meets its first one warm.
    const firsts = o.workers.rows.map((w) => w[1]!).sort((a, b) => a - b);
    expect(firsts[firsts.length >> 1]).toBeGreaterThanOrEqual(600);
  });
});
