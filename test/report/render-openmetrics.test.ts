/**
 * metrics.om from a real run: valid OpenMetrics structure (timestamps everywhere, families and
 * series grouped, counters monotonic, `# EOF` last), the same numbers as report.json, and bytes that
 * depend only on the report and the start instant.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { encode, newHistogram, record } from '../../src/report/histogram.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';
import type { RunResult } from '../../src/report/run-result.js';
import { lastValue, parseOpenMetrics, samples, type OmFamily } from './openmetrics-check.js';

const START = Date.UTC(2024, 4, 1, 12); // 2024-05-01T12:00:00Z
const SEED = 'a "quoted" \\ seed\nover two lines';
const poll = { baseMs: 500, factor: 1, jitter: 0 };

let r: RunResult;
let text: string;
let fams: OmFamily[];
beforeAll(async () => {
  const l = parseScenario({
    name: 'om-check', seed: SEED, durationMs: 40_000, drainMs: 60_000,
    // 10 /run per 10 s against ~17 sent: 429s with cause "rate".
    endpoint: { id: 'om', workersMax: 2, jobDurationMs: 400, limits: { operations: { run: { rate: 10 } } } },
    webhookReceiver: { failFirstAttempts: 1 },
    traffic: [
      { name: 'ok', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll', poll, on429: { maxAttempts: 2, baseMs: 1000, jitter: 0 } } },
      { name: 'bad', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'run-poll', poll, payload: { sim: { fail: true } } } },
      { name: 'hooks', arrival: { process: 'constant', ratePerSec: 0.2 }, client: { behaviour: 'run-webhook' } },
      { name: 'sync', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 1000 } },
    ],
  }, 'inline');
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  r = await runScenario(l.scenario);
  text = renderOpenMetrics(r, START);
  fams = parseOpenMetrics(text);
});

const total = (f: (o: RunResult['operations'][string]) => number) => Object.values(r.operations).reduce((a, o) => a + f(o), 0);

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
    expect(fams.map((f) => f.name)).toEqual(expect.arrayContaining([
      'loadlab_run', 'loadlab_client_requests', 'loadlab_requests_limited', 'loadlab_jobs_finished', 'loadlab_webhook_attempts',
      'loadlab_job_delay_seconds', 'loadlab_job_execution_seconds', 'loadlab_client_response_seconds', 'loadlab_virtual_time_seconds',
    ]));
  });

  test('every timestamp lies in the run, mapped onto the start instant; counters sample the end of every 10 s window', () => {
    const all = fams.flatMap((f) => f.samples.map((s) => s.ms));
    expect(Math.min(...all)).toBe(START);
    expect(Math.max(...all)).toBe(START + r.elapsedMs);
    const n = r.timeline.requests.length;
    expect(n).toBe(Math.ceil(r.elapsedMs / 10_000));
    expect(samples(fams, 'loadlab_client_requests_total').map((s) => s.ms - START)).toEqual([
      0, ...Array.from({ length: n - 1 }, (_, i) => (i + 1) * 10_000), r.elapsedMs,
    ]);
  });

  test('label values are escaped (quote, backslash, line feed) and read back unchanged', () => {
    expect(text).toContain('seed="a \\"quoted\\" \\\\ seed\\nover two lines"');
    expect(samples(fams, 'loadlab_run_info')[0]!.labels).toEqual({ endpoint: 'om', scenario: 'om-check', seed: SEED, kind: 'run', target: 'in-process', causes: 'reported' });
  });
});

describe('metrics.om values equal report.json', () => {
  test('requests, answers by operation and status, 429s by cause', () => {
    expect(lastValue(fams, 'loadlab_client_requests_total')).toBe(total((o) => o.requests));
    for (const [op, o] of Object.entries(r.operations)) {
      for (const [st, v] of Object.entries(o.byStatus)) expect(lastValue(fams, 'loadlab_client_responses_total', { operation: op, status: st })).toBe(v);
    }
    const twoxx = total((o) => Object.entries(o.byStatus).reduce((a, [st, v]) => a + (st.startsWith('2') ? v : 0), 0));
    expect(lastValue(fams, 'loadlab_client_responses_2xx_total')).toBe(twoxx);
    expect(r.operations.run!.limited.rate).toBeGreaterThan(0);
    for (const c of ['rate', 'concurrency', 'queue'] as const) expect(lastValue(fams, 'loadlab_requests_limited_total', { cause: c })).toBe(total((o) => o.limited[c]));
    expect(lastValue(fams, 'loadlab_client_retries_429_total', { operation: 'run' })).toBe(r.operations.run!.retried429);
  });

  test('per-window counters rise by the timeline column of each window', () => {
    const vals = samples(fams, 'loadlab_requests_limited_total', { cause: 'rate' }).map((s) => s.value);
    expect(vals.slice(1).map((v, i) => v - vals[i]!)).toEqual(r.timeline.limitedRate);
    expect(samples(fams, 'loadlab_client_queue_jobs_max').map((s) => s.value)).toEqual(r.timeline.queueDepthMax.filter((x) => x >= 0));
    expect(lastValue(fams, 'loadlab_virtual_time_seconds')).toBe(r.elapsedMs / 1000);
  });

  test('jobs by status, failures, webhooks, sessions', () => {
    expect(r.jobs.finalStatus.FAILED).toBeGreaterThan(0);
    for (const [st, v] of Object.entries(r.jobs.finalStatus)) expect(lastValue(fams, 'loadlab_jobs_finished_total', { status: st })).toBe(v);
    expect(lastValue(fams, 'loadlab_client_jobs_failed_total')).toBe((r.jobs.finalStatus.FAILED ?? 0) + (r.jobs.finalStatus.TIMED_OUT ?? 0));
    expect(lastValue(fams, 'loadlab_jobs_accepted_total')).toBe(r.jobs.accepted);
    const w = r.webhooks;
    expect(w.failedAttempts).toBeGreaterThan(0);
    expect(lastValue(fams, 'loadlab_webhook_attempts_total', { outcome: 'delivered' })).toBe(w.delivered);
    expect(lastValue(fams, 'loadlab_webhook_attempts_total', { outcome: 'failed' })).toBe(w.failedAttempts - w.gaveUp);
    expect(lastValue(fams, 'loadlab_client_webhook_failures_total')).toBe(w.failedAttempts);
    for (const [flow, f] of Object.entries(r.flows)) {
      for (const [o, v] of Object.entries(f.outcomes)) expect(lastValue(fams, 'loadlab_client_sessions_total', { flow, outcome: o })).toBe(v);
    }
  });

  test('latency: summaries carry the report\'s quantiles; job delay is a histogram with its count', () => {
    for (const [op, o] of Object.entries(r.operations)) {
      expect(lastValue(fams, 'loadlab_client_response_seconds', { operation: op, quantile: '0.99' })).toBe(o.responseMs.summary.p99 / 1000);
      expect(lastValue(fams, 'loadlab_client_response_seconds', { operation: op, quantile: '1.0' })).toBe(o.responseMs.summary.max / 1000);
      expect(lastValue(fams, 'loadlab_client_response_seconds_count', { operation: op })).toBe(o.responseMs.count);
    }
    expect(lastValue(fams, 'loadlab_job_delay_seconds_count')).toBe(r.jobs.queueDelayMs.count);
    expect(lastValue(fams, 'loadlab_job_delay_seconds_bucket', { le: '+Inf' })).toBe(r.jobs.queueDelayMs.count);
  });

  test('histogram buckets of known values: cumulative per bound, a value on a bound counts in it, sum within HDR resolution', () => {
    const h = newHistogram();
    for (const ms of [5, 1000, 1001, 60_000, 2_000_000]) record(h, ms);
    const om = parseOpenMetrics(renderOpenMetrics({ ...r, jobs: { ...r.jobs, queueDelayMs: encode(h) } }, START));
    const at = (le: string) => lastValue(om, 'loadlab_job_delay_seconds_bucket', { le });
    expect([at('0.005'), at('0.01'), at('1.0'), at('2.5'), at('60.0'), at('1800.0'), at('+Inf')]).toEqual([1, 1, 2, 3, 4, 4, 5]);
    expect(Math.abs(lastValue(om, 'loadlab_job_delay_seconds_sum')! - 2_062.006)).toBeLessThan(2.062); // HDR: 0.1 %
    expect(samples(om, 'loadlab_job_delay_seconds_bucket', { le: '+Inf' }).map((s) => [s.ms - START, s.value])).toEqual([[0, 0], [r.elapsedMs, 5]]);
  });
});

describe('metrics.om bytes', () => {
  test('the same report and start give the same bytes; another start moves every timestamp by the difference and nothing else', () => {
    expect(renderOpenMetrics(r, START)).toBe(text);
    const later = renderOpenMetrics(r, START + 3_600_500);
    const shift = (s: string) => s.replace(/ (\d+)\.(\d{3})$/gm, (_, sec: string, ms: string) => ` ${(Number(sec) * 1000 + Number(ms) + 3_600_500) / 1000}`);
    expect(later).not.toBe(text);
    expect(later.replace(/ (\d+)\.(\d{3})$/gm, (_, sec: string, ms: string) => ` ${(Number(sec) * 1000 + Number(ms)) / 1000}`)).toBe(shift(text));
  });

  test('an HTTP target (wall time) has no virtual-time gauge and says its causes were inferred', () => {
    const om = parseOpenMetrics(renderOpenMetrics({ ...r, target: { kind: 'http', url: 'https://user:secret@example.com/v2', causes: 'inferred' } }, START));
    expect(om.map((f) => f.name)).not.toContain('loadlab_virtual_time_seconds');
    expect(samples(om, 'loadlab_run_info')[0]!.labels).toMatchObject({ target: 'http', causes: 'inferred' });
    expect(JSON.stringify(om)).not.toMatch(/secret|example\.com/);
  });
});
