/**
 * metrics.om from a real run: valid OpenMetrics structure (timestamps everywhere, families and
 * series grouped, counters monotonic, histograms cumulative, `# EOF` last), the same numbers as
 * report.json window by window (latency percentiles within the bucket bounds), reports of older
 * versions, and bytes that depend only on the report and the start instant.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { encode, mergeWindowEncodings, newHistogram, record, summarize } from '../../src/report/histogram.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import type { RunResult } from '../../src/report/run-result.js';
import { bucketDelta, bucketQuantile, histogramPoints, lastValue, parseOpenMetrics, samples, type OmFamily } from './openmetrics-check.js';

const START = Date.UTC(2024, 4, 1, 12); // 2024-05-01T12:00:00Z
const SEED = 'a "quoted" \\ seed\nover two lines';
const poll = { baseMs: 500, factor: 1, jitter: 0 };

let r: RunResult;
let text: string;
let fams: OmFamily[];
beforeAll(async () => {
  const l = parseScenario(
    {
      name: 'om-check',
      seed: SEED,
      durationMs: 40_000,
      drainMs: 60_000,
      // 10 /run per 10 s against ~17 sent: 429s with cause "rate".
      endpoint: { id: 'om', workersMax: 2, jobDurationMs: 400, limits: { operations: { run: { rate: 10 } } } },
      webhookReceiver: { failFirstAttempts: 1 },
      traffic: [
        {
          name: 'ok',
          arrival: { process: 'constant', ratePerSec: 1 },
          client: { behaviour: 'run-poll', poll, on429: { maxAttempts: 2, baseMs: 1000, jitter: 0 } },
        },
        { name: 'bad', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'run-poll', poll, payload: { sim: { fail: true } } } },
        { name: 'hooks', arrival: { process: 'constant', ratePerSec: 0.2 }, client: { behaviour: 'run-webhook' } },
        { name: 'sync', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 1000 } },
      ],
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  r = await runScenario(l.scenario, { coldStarts: true });
  text = renderOpenMetrics(r, START);
  fams = parseOpenMetrics(text);
});

const total = (f: (o: RunResult['operations'][string]) => number) => Object.values(r.operations).reduce((a, o) => a + f(o), 0);
/** Per-window increases of a cumulative series (its first point is the 0 at the start). */
const steps = (vals: number[]) => vals.slice(1).map((v, i) => v - vals[i]!);
const values = (name: string, match: Record<string, string> = {}) => samples(fams, name, match).map((s) => s.value);
/** Window ends of the run's 10 s windows, the last at the end of the run. */
const ends = () => {
  const n = Math.ceil(r.elapsedMs / 10_000);
  return [...Array.from({ length: n - 1 }, (_, i) => (i + 1) * 10_000), r.elapsedMs];
};

describe('metrics.om structure', () => {
  test('every family has TYPE and HELP (UNIT for seconds); counters are named for _total samples; # EOF is the last line', () => {
    expect(text.split('\n').filter((x) => x.startsWith('#') && !/^# (TYPE|UNIT|HELP) /.test(x))).toEqual(['# EOF']);
    expect(text.endsWith('\n# EOF\n')).toBe(true);
    for (const f of fams) {
      expect(f.help, f.name).toBeTruthy();
      expect(f.unit, f.name).toBe(f.name.endsWith('_seconds') ? 'seconds' : undefined);
      if (f.type === 'counter') expect(f.name).not.toMatch(/_total$/);
      expect(f.samples.length, f.name).toBeGreaterThan(0);
    }
    const types = Object.fromEntries(fams.map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      loadlab_run: 'info',
      loadlab_client_requests: 'counter',
      loadlab_client_responses: 'counter',
      loadlab_requests_limited: 'counter',
      loadlab_jobs_finished: 'counter',
      loadlab_webhook_attempts: 'counter',
      loadlab_client_in_flight_max: 'gauge',
      loadlab_client_response_seconds: 'histogram',
      loadlab_client_turnaround_seconds: 'histogram',
      loadlab_client_queue_delay_seconds: 'histogram',
      loadlab_client_execution_seconds: 'histogram',
      loadlab_client_cold_start_seconds: 'histogram',
      loadlab_client_endpoint_queue_jobs: 'gauge',
      loadlab_client_endpoint_jobs_in_system: 'gauge',
      loadlab_client_endpoint_workers: 'gauge',
      loadlab_client_limit: 'gauge',
      loadlab_client_run_start_time_seconds: 'gauge',
      loadlab_client_run_end_time_seconds: 'gauge',
      loadlab_virtual_time_seconds: 'gauge',
    });
    // Replaced by the per-flow histograms.
    expect(types).not.toHaveProperty('loadlab_job_delay_seconds');
    expect(types).not.toHaveProperty('loadlab_job_execution_seconds');
  });

  test('every timestamp lies in the run, mapped onto the start instant; per-window series sample the end of every 10 s window', () => {
    const all = fams.flatMap((f) => f.samples.map((s) => s.ms));
    expect(Math.min(...all)).toBe(START);
    expect(Math.max(...all)).toBe(START + r.elapsedMs);
    expect(r.timeline.requests).toHaveLength(Math.ceil(r.elapsedMs / 10_000));
    expect(r.windows!.windowMs).toBe(10_000);
    const at = (name: string, match: Record<string, string> = {}) => samples(fams, name, match).map((s) => s.ms - START);
    expect(at('loadlab_client_requests_total', { operation: 'run' })).toEqual([0, ...ends()]);
    expect(at('loadlab_client_responses_2xx_total')).toEqual([0, ...ends()]);
    expect(at('loadlab_client_response_seconds_count', { operation: 'status' })).toEqual([0, ...ends()]);
    for (const name of ['loadlab_run_info', 'loadlab_client_run_start_time_seconds', 'loadlab_client_run_end_time_seconds'])
      expect(at(name), name).toEqual([0, ...ends()]);
    expect(at('loadlab_client_limit', { limit: 'workers' })).toEqual([0, ...ends()]);
  });

  test('every series carries endpoint and scenario; label values are escaped (quote, backslash, line feed) and read back unchanged', () => {
    for (const f of fams) for (const s of f.samples) expect(s.labels, s.name).toMatchObject({ endpoint: 'om', scenario: 'om-check' });
    expect(text).toContain('seed="a \\"quoted\\" \\\\ seed\\nover two lines"');
    expect(samples(fams, 'loadlab_run_info')[0]!.labels).toEqual({
      endpoint: 'om',
      scenario: 'om-check',
      seed: SEED,
      kind: 'run',
      target: 'in-process',
      causes: 'reported',
    });
  });
});

describe('metrics.om values equal report.json', () => {
  test('requests and answers per operation, window by window; 429s by cause', () => {
    const w = r.windows!;
    for (const [op, o] of Object.entries(r.operations)) {
      expect(steps(values('loadlab_client_requests_total', { operation: op })), op).toEqual(w.requests![op]);
      expect(lastValue(fams, 'loadlab_client_requests_total', { operation: op })).toBe(o.requests);
      expect(Object.keys(w.responses![op]!)).toEqual(Object.keys(o.byStatus));
      for (const [st, v] of Object.entries(o.byStatus)) {
        expect(steps(values('loadlab_client_responses_total', { operation: op, status: st })), `${op} ${st}`).toEqual(w.responses![op]![st]);
        expect(lastValue(fams, 'loadlab_client_responses_total', { operation: op, status: st })).toBe(v);
      }
    }
    expect(samples(fams, 'loadlab_client_requests_total').every((s) => s.labels.operation)).toBe(true);
    const twoxx = total((o) => Object.entries(o.byStatus).reduce((a, [st, v]) => a + (st.startsWith('2') ? v : 0), 0));
    expect(lastValue(fams, 'loadlab_client_responses_2xx_total')).toBe(twoxx);
    expect(r.operations.run!.limited.rate).toBeGreaterThan(0);
    for (const c of ['rate', 'concurrency', 'queue'] as const)
      expect(lastValue(fams, 'loadlab_requests_limited_total', { cause: c })).toBe(total((o) => o.limited[c]));
    expect(lastValue(fams, 'loadlab_client_retries_429_total', { operation: 'run' })).toBe(r.operations.run!.retried429);
    expect(steps(values('loadlab_requests_limited_total', { cause: 'rate' }))).toEqual(r.timeline.limitedRate);
  });

  test('in flight per operation per window: its highest is the headroom peak', () => {
    for (const row of r.headroom.operations) {
      const v = values('loadlab_client_in_flight_max', { operation: row.operation });
      expect(v, row.operation).toEqual(r.windows!.inFlightMax![row.operation]);
      expect(Math.max(...v), row.operation).toBe(row.peakInFlight);
    }
  });

  test('the endpoint per window, the limits, the run start and end, the queue probes and the virtual clock', () => {
    const ep = r.windows!.endpoint!;
    expect(values('loadlab_client_endpoint_queue_jobs')).toEqual(ep.queueLength);
    expect(values('loadlab_client_endpoint_jobs_in_system')).toEqual(ep.jobsInSystem);
    expect(values('loadlab_client_endpoint_workers', { state: 'running' })).toEqual(ep.workers.running);
    expect(ep.workers.running.some((x) => x > 0)).toBe(true);
    // limits: /run at 10 per 10 s → 1 per second; the rest the documented defaults.
    expect(lastValue(fams, 'loadlab_client_limit', { limit: 'rate', operation: 'run' })).toBe(1);
    expect(lastValue(fams, 'loadlab_client_limit', { limit: 'workers' })).toBe(2);
    expect(lastValue(fams, 'loadlab_client_limit', { limit: 'queue' })).toBe(r.headroom.queueThrottleAt);
    const conc = r.headroom.operations.find((o) => o.operation === 'run')!.concurrency;
    expect(lastValue(fams, 'loadlab_client_limit', { limit: 'concurrency', operation: 'run' })).toBe(conc ?? undefined);
    expect(new Set(values('loadlab_client_run_start_time_seconds'))).toEqual(new Set([START / 1000]));
    expect(new Set(values('loadlab_client_run_end_time_seconds'))).toEqual(new Set([(START + r.elapsedMs) / 1000]));
    expect(values('loadlab_client_queue_jobs_max')).toEqual(r.timeline.queueDepthMax.filter((x) => x >= 0));
    expect(lastValue(fams, 'loadlab_virtual_time_seconds')).toBe(r.elapsedMs / 1000);
  });

  test('jobs by status, failures, webhook attempts per window, sessions', () => {
    expect(r.jobs.finalStatus.FAILED).toBeGreaterThan(0);
    for (const [st, v] of Object.entries(r.jobs.finalStatus)) expect(lastValue(fams, 'loadlab_jobs_finished_total', { status: st })).toBe(v);
    expect(lastValue(fams, 'loadlab_client_jobs_failed_total')).toBe((r.jobs.finalStatus.FAILED ?? 0) + (r.jobs.finalStatus.TIMED_OUT ?? 0));
    expect(lastValue(fams, 'loadlab_jobs_accepted_total')).toBe(r.jobs.accepted);
    const w = r.webhooks;
    expect(w.failedAttempts).toBeGreaterThan(0);
    expect(lastValue(fams, 'loadlab_webhook_attempts_total', { outcome: 'delivered' })).toBe(w.delivered);
    expect(lastValue(fams, 'loadlab_webhook_attempts_total', { outcome: 'failed' })).toBe(w.failedAttempts - w.gaveUp);
    expect(lastValue(fams, 'loadlab_webhook_attempts_total', { outcome: 'gave-up' })).toBe(w.gaveUp);
    // Per window: the three outcomes add up to the attempts of the window.
    const per = ['delivered', 'failed', 'gave-up'].map((o) => steps(values('loadlab_webhook_attempts_total', { outcome: o })));
    expect(per[0]!.map((d, i) => d + per[1]![i]! + per[2]![i]!)).toEqual(r.timeline.webhookAttempts);
    expect(lastValue(fams, 'loadlab_client_webhook_failures_total')).toBe(w.failedAttempts);
    for (const [flow, f] of Object.entries(r.flows)) {
      for (const [o, v] of Object.entries(f.outcomes)) expect(lastValue(fams, 'loadlab_client_sessions_total', { flow, outcome: o })).toBe(v);
    }
  });
});

describe('metrics.om latency over time', () => {
  test('response time per operation and job times per flow: per-window counts equal the HDR windows', () => {
    const w = r.windows!;
    const counts = (encs: string[]) => encs.map((e) => mergeWindowEncodings([e])?.totalCount ?? 0);
    for (const [op, encs] of Object.entries(w.responseMs)) {
      expect(steps(values('loadlab_client_response_seconds_count', { operation: op })), op).toEqual(counts(encs));
      expect(lastValue(fams, 'loadlab_client_response_seconds_bucket', { operation: op, le: '+Inf' })).toBe(r.operations[op]!.responseMs.count);
    }
    for (const [flow, f] of Object.entries(r.flows)) {
      const jobs = f.jobs!;
      if (!jobs.turnaroundMs.count) continue;
      expect(steps(values('loadlab_client_turnaround_seconds_count', { flow })), flow).toEqual(counts(w.flows[flow]!.turnaroundMs));
      expect(lastValue(fams, 'loadlab_client_queue_delay_seconds_count', { flow })).toBe(jobs.queueDelayMs.count);
      expect(lastValue(fams, 'loadlab_client_execution_seconds_count', { flow })).toBe(jobs.executionMs.count);
      expect(lastValue(fams, 'loadlab_client_cold_start_seconds_count', { flow })).toBe(jobs.coldStartMs!.count);
    }
    // A summary of that name no longer exists: no quantile samples.
    expect(samples(fams, 'loadlab_client_response_seconds')).toEqual([]);
  });

  test("each window's p95 from the file's classic buckets (histogram_quantile) agrees with the report's per-window HDR p95 within the bucket bounds", () => {
    let checked = 0;
    const series: [string, Record<string, string>, string[]][] = [
      ...Object.entries(r.windows!.responseMs).map(([op, encs]): [string, Record<string, string>, string[]] => [
        'loadlab_client_response_seconds',
        { operation: op },
        encs,
      ]),
      ...Object.entries(r.windows!.flows).map(([flow, f]): [string, Record<string, string>, string[]] => [
        'loadlab_client_turnaround_seconds',
        { flow },
        f.turnaroundMs,
      ]),
    ];
    for (const [name, match, encs] of series) {
      const pts = histogramPoints(fams, name, match);
      encs.forEach((enc, i) => {
        const h = mergeWindowEncodings([enc]);
        if (!h) return;
        const hdrP95 = summarize(h).p95 / 1000;
        const { value, lower, upper } = bucketQuantile(0.95, bucketDelta(pts[i]!, pts[i + 1]!));
        const where = `${name} ${JSON.stringify(match)} window ${i}: HDR p95 ${hdrP95} s, buckets (${lower}, ${upper}] give ${value}`;
        // HDR reports the top of its 0.1 % bucket: it may pass the classic bound by that much.
        expect(hdrP95 >= lower && hdrP95 <= upper * 1.001, where).toBe(true);
        expect(value >= lower && value <= upper, where).toBe(true);
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(10);
  });

  test('buckets of known values: cumulative per bound and over windows, a value on a bound counts in it, sum within HDR resolution', () => {
    const h1 = newHistogram();
    for (const ms of [5, 1000, 1001, 60_000, 2_000_000]) record(h1, ms);
    const h2 = newHistogram();
    for (const ms of [3, 7]) record(h2, ms);
    const windows = { ...r.windows!, responseMs: { run: [encode(h1).hdr, '', encode(h2).hdr] } };
    const om = parseOpenMetrics(renderOpenMetrics({ ...r, windows }, START));
    const pts = histogramPoints(om, 'loadlab_client_response_seconds', { operation: 'run' });
    const at = (k: number, le: number) => pts[k]!.buckets.find(([b]) => b === le)![1];
    expect([0.005, 0.01, 1, 2.5, 60, 1800, Infinity].map((le) => at(1, le))).toEqual([1, 1, 2, 3, 4, 4, 5]);
    expect([0.005, 0.01, 1, Infinity].map((le) => at(2, le))).toEqual([1, 1, 2, 5]);
    expect([0.005, 0.01, 1, Infinity].map((le) => at(3, le))).toEqual([2, 3, 4, 7]);
    expect(pts.map((p) => p.ms - START)).toEqual([0, ...ends()]);
    expect(pts.slice(4).every((p) => p.buckets.at(-1)![1] === 7)).toBe(true);
    const sums = samples(om, 'loadlab_client_response_seconds_sum', { operation: 'run' }).map((s) => s.value);
    expect(Math.abs(sums[1]! - 2_062.006)).toBeLessThan(2.062); // HDR: 0.1 %
    expect(sums[3]! - sums[1]!).toBeCloseTo(0.01, 6);
  });
});

describe('metrics.om of older reports', () => {
  test('without per-window answers, in-flight maxima and webhooks given up: whole-run answers, in flight without operation, webhooks at start and end', () => {
    const old = structuredClone(r);
    delete old.windows!.responses;
    delete old.windows!.inFlightMax;
    delete old.timeline.webhookGaveUp;
    const om = parseOpenMetrics(renderOpenMetrics(old, START));
    for (const [op, o] of Object.entries(r.operations)) {
      for (const [st, v] of Object.entries(o.byStatus))
        expect(samples(om, 'loadlab_client_responses_total', { operation: op, status: st }).map((s) => [s.ms - START, s.value])).toEqual([
          [0, 0],
          [r.elapsedMs, v],
        ]);
    }
    expect(samples(om, 'loadlab_client_in_flight_max').map((s) => s.value)).toEqual(r.timeline.inFlightMax.filter((x) => x >= 0));
    expect(samples(om, 'loadlab_webhook_attempts_total', { outcome: 'delivered' }).map((s) => s.value)).toEqual([0, r.webhooks.delivered]);
  });

  test('version 1 (no windows): requests without operation label, response time as one whole-run histogram, no job histograms', () => {
    const v1 = structuredClone(r) as RunResult;
    v1.version = 1;
    delete v1.windows;
    for (const f of Object.values(v1.flows)) delete f.jobs;
    const om = parseOpenMetrics(renderOpenMetrics(v1, START));
    expect(samples(om, 'loadlab_client_requests_total').map((s) => s.value)).toEqual([
      0,
      ...r.timeline.requests.map((_, i) => r.timeline.requests.slice(0, i + 1).reduce((a, b) => a + b, 0)),
    ]);
    expect(samples(om, 'loadlab_client_response_seconds_count', { operation: 'run' }).map((s) => [s.ms - START, s.value])).toEqual([
      [0, 0],
      [r.elapsedMs, r.operations.run!.responseMs.count],
    ]);
    expect(om.map((f) => f.name)).not.toContain('loadlab_client_turnaround_seconds');
    expect(om.map((f) => f.name)).not.toContain('loadlab_client_endpoint_queue_jobs');
    expect(samples(om, 'loadlab_run_info').map((s) => s.ms - START)).toEqual([0, ...ends()]);
  });
});

describe('metrics.om bytes', () => {
  test('the same report and start give the same bytes; another start moves every timestamp by the difference, and the start and end gauges by it too', () => {
    expect(renderOpenMetrics(r, START)).toBe(text);
    const d = 3_600_500;
    const later = renderOpenMetrics(r, START + d);
    expect(later).not.toBe(text);
    const back = (s: string) => s.replace(/ (\d+)\.(\d{3})$/gm, (_, sec: string, ms: string) => ` ${(Number(sec) * 1000 + Number(ms)) / 1000}`);
    const shift = (s: string) => s.replace(/ (\d+)\.(\d{3})$/gm, (_, sec: string, ms: string) => ` ${(Number(sec) * 1000 + Number(ms) + d) / 1000}`);
    const instants = /^loadlab_client_run_(start|end)_time_seconds\{[^}]*\} (\S+)/gm;
    const moved = (s: string) => s.replace(instants, (line, _w: string, v: string) => line.replace(` ${v}`, ` ${(Number(v) * 1000 + d) / 1000}`));
    expect(back(later)).toBe(shift(moved(text)));
  });

  test('an HTTP target (wall time) has no virtual-time gauge and says its causes were inferred', () => {
    const om = parseOpenMetrics(renderOpenMetrics({ ...r, target: { kind: 'http', url: 'https://user:secret@example.com/v2', causes: 'inferred' } }, START));
    expect(om.map((f) => f.name)).not.toContain('loadlab_virtual_time_seconds');
    expect(samples(om, 'loadlab_run_info')[0]!.labels).toMatchObject({ target: 'http', causes: 'inferred' });
    expect(JSON.stringify(om)).not.toMatch(/secret|example\.com/);
  });
});
