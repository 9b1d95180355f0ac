/**
 * `serve`'s /metrics before any job: every series whose label values are known when the endpoint
 * is created is there at 0, so a dashboard panel for something that has not happened yet shows 0
 * rather than "No data" (the Grafana simulator dashboard's re-queued, expired and purged panel).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseProm, select, value } from '../telemetry/prom-text.js';
import { serve, type Served } from './serve-helper.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const scrape = async () => parseProm((await t!.call('GET', '/metrics', undefined, { auth: null })).text);

/** Every series expected at 0 on endpoint `ep` before anything happened. */
const AT_ZERO: [string, Record<string, string>][] = [
  ['loadlab_jobs_requeued_total', { reason: 'crash' }],
  ['loadlab_jobs_requeued_total', { reason: 'retry' }],
  ['loadlab_jobs_expired_total', { reason: 'retention' }],
  ['loadlab_jobs_expired_total', { reason: 'ttl' }],
  ['loadlab_jobs_purged_total', {}],
  ['loadlab_jobs_accepted_total', { kind: 'run' }],
  ['loadlab_jobs_accepted_total', { kind: 'runsync' }],
  ['loadlab_jobs_accepted_total', { kind: 'openai' }],
  ['loadlab_jobs_finished_total', { status: 'COMPLETED' }],
  ['loadlab_jobs_finished_total', { status: 'FAILED' }],
  ['loadlab_jobs_finished_total', { status: 'CANCELLED' }],
  ['loadlab_jobs_finished_total', { status: 'TIMED_OUT' }],
  ['loadlab_webhook_attempts_total', { outcome: 'delivered' }],
  ['loadlab_webhook_attempts_total', { outcome: 'failed' }],
  ['loadlab_webhook_attempts_total', { outcome: 'gave-up' }],
  ['loadlab_requests_limited_total', { operation: 'run', cause: 'rate' }],
  ['loadlab_requests_limited_total', { operation: 'run', cause: 'concurrency' }],
  ['loadlab_requests_limited_total', { operation: 'run', cause: 'queue' }],
  ['loadlab_requests_limited_total', { operation: 'status', cause: 'rate' }],
  ['loadlab_workers', { state: 'initializing' }],
  ['loadlab_workers', { state: 'idle' }],
  ['loadlab_workers', { state: 'running' }],
  ['loadlab_workers', { state: 'throttled' }],
  ['loadlab_workers', { state: 'unhealthy' }],
];

describe('/metrics before any job', () => {
  it('exports the known series of each endpoint at 0', async () => {
    t = await serve({ workersMin: 0 });
    const m = await scrape();
    const missing = AT_ZERO.filter(([name, labels]) => value(m, name, { endpoint: 'ep', ...labels }) !== 0);
    expect(missing, 'series not exported at 0').toEqual([]);
  });

  it('exports 429 series only for limits the endpoint has', async () => {
    t = await serve({ limits: { operations: { status: { rate: null }, cancel: { concurrency: null } } } });
    const m = await scrape();
    const limited = (where: Record<string, string>) => select(m, 'loadlab_requests_limited_total', { endpoint: 'ep', ...where }).length;
    expect(limited({ operation: 'status', cause: 'rate' })).toBe(0);
    expect(limited({ operation: 'cancel', cause: 'concurrency' })).toBe(0);
    expect(limited({ operation: 'health', cause: 'concurrency' })).toBe(0);
    expect(limited({ operation: 'status', cause: 'queue' })).toBe(0);
    expect(limited({ operation: 'status', cause: 'concurrency' })).toBe(1);
    expect(limited({ operation: 'runsync', cause: 'queue' })).toBe(1);
  });

  it('counts on from 0: two purged jobs read 2, the series not counted stay at 0', async () => {
    t = await serve({ workersMax: 0 });
    await t.run();
    await t.run();
    await t.call('POST', '/purge-queue');
    const m = await scrape();
    expect(value(m, 'loadlab_jobs_purged_total', { endpoint: 'ep' })).toBe(2);
    expect(value(m, 'loadlab_jobs_requeued_total', { endpoint: 'ep', reason: 'crash' })).toBe(0);
    expect(value(m, 'loadlab_jobs_accepted_total', { endpoint: 'ep', kind: 'run' })).toBe(2);
  });

  it('with limits off, no 429 series', async () => {
    t = await serve({ limits: { enabled: false } });
    const m = await scrape();
    expect(select(m, 'loadlab_requests_limited_total')).toEqual([]);
    expect(value(m, 'loadlab_jobs_purged_total', { endpoint: 'ep' })).toBe(0);
  });
});
