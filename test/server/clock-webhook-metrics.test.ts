/** The real clock (re-arming), the undici webhook sender (timeouts, no redirects), /metrics text. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender } from '../../src/server/webhook-sender.js';
import { WebhookTargets } from '../../src/server/webhook-targets.js';
import type { WebhookResult } from '../../src/contract/webhooks.js';
import { serve, type Served } from './serve-helper.js';

let t: Served | undefined;
let rx: Server | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  rx?.closeAllConnections();
  await new Promise((r) => (rx ? rx.close(r) : r(undefined)));
  rx = undefined;
});

describe('real clock', () => {
  it('wakes for an event scheduled earlier than the one it sleeps for', async () => {
    t = await serve({ workersMax: 2 }, {}, { clock: 'real', speed: 100 });
    await t.run({ sim: { durationMs: 1_000_000 } }); // the clock sleeps ~10 s of wall time for this one
    const t0 = Date.now();
    const r = await t.call('POST', '/runsync', { input: { sim: { durationMs: 1000 } } }); // 10 ms of wall time
    const wall = Date.now() - t0;
    expect(r.body).toMatchObject({ status: 'COMPLETED', executionTime: 1000 });
    expect(wall).toBeLessThan(5000); // far below the 10 s sleep, with room for a busy machine
    expect(wall).toBeGreaterThanOrEqual(9);
  });

  it('/_sim/clock follows wall time × speed', async () => {
    t = await serve({}, {}, { clock: 'real', speed: 50 });
    const a = await t.now();
    await new Promise((r) => setTimeout(r, 100));
    const b = await t.now();
    expect(b - a).toBeGreaterThanOrEqual(4500);
    expect(b - a).toBeLessThan(50 * 10_000);
  });
});

async function receiver(handler: Parameters<typeof createServer>[1]): Promise<string> {
  rx = createServer(handler);
  await new Promise<void>((r) => rx!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;
}

function send(sender: HttpWebhookSender, url: string): Promise<WebhookResult> {
  return new Promise((r) => sender.send({ endpointId: 'ep', jobId: 'j', url, body: { id: 'j' }, attempt: 1 }, r));
}

describe('webhook sender', () => {
  it('a receiver that never answers fails the attempt at the timeout', async () => {
    const url = await receiver(() => {});
    const sender = new HttpWebhookSender(new WebhookTargets(), {}, 200);
    const t0 = Date.now();
    expect(await send(sender, url)).toEqual({ error: 'timeout after 200 ms' });
    expect(Date.now() - t0).toBeLessThan(8000);
    await sender.settled();
    await sender.close();
  });

  it('only 200 is success: a redirect is not followed and a 204 fails', async () => {
    let hits = 0;
    const url = await receiver((req, res) => {
      hits++;
      res.writeHead(req.url === '/hook' ? 302 : 204, { location: '/other' }).end();
    });
    const sender = new HttpWebhookSender(new WebhookTargets());
    expect(await send(sender, url)).toEqual({ httpStatus: 302 });
    expect(await send(sender, url.replace('/hook', '/x'))).toEqual({ httpStatus: 204 });
    expect(hits).toBe(2);
    await sender.close();
  });

  it('refuses non-http protocols and hosts off the allow list', async () => {
    const targets = new WebhookTargets(['hooks.example.com']);
    expect(targets.check('file:///etc/passwd')).toEqual({ ok: false, reason: 'protocol file: not allowed (http or https only)' });
    expect(targets.check('http://10.0.0.1/x').ok).toBe(false);
    expect(targets.check('https://HOOKS.example.com/x').ok).toBe(true);
    expect(targets.check('http://localhost:9/x').ok).toBe(true);
    expect(targets.check('http://[::1]:9/x').ok).toBe(true);
    expect(targets.check('http://127.0.0.1.evil.com/x').ok).toBe(false);
  });
});

describe('/metrics', () => {
  it('exposes job, limit and HTTP metrics observed in virtual time', async () => {
    t = await serve({ jobDurationMs: 1500, limits: { operations: { cancel: { rate: 1 } } } });
    await t.run();
    await t.advance(1500);
    await t.call('POST', '/cancel/x');
    await t.call('POST', '/cancel/x');
    const m = (await t.call('GET', '/metrics', undefined, { auth: null })).text;
    expect(m).toContain('loadlab_jobs_accepted_total{endpoint="ep",kind="run"} 1');
    expect(m).toContain('loadlab_jobs_finished_total{endpoint="ep",status="COMPLETED"} 1');
    expect(m).toContain('loadlab_job_execution_seconds_sum{endpoint="ep",status="COMPLETED"} 1.5');
    expect(m).toContain('loadlab_requests_limited_total{endpoint="ep",operation="cancel",cause="rate"} 1');
    expect(m).toContain('loadlab_virtual_time_seconds 1.5');
    expect(m).toContain('loadlab_queue_jobs{endpoint="ep"} 0');
    expect(m).toContain('loadlab_http_requests_total{route="run",status="200"} 1');
    expect(m).toContain('loadlab_http_requests_total{route="cancel",status="429"} 1');
    expect(m).toMatch(/loadlab_workers\{endpoint="ep",state="idle"\} 1/);
    // One worker started cold (initializing), went idle, ran the job and went idle again.
    expect(m).toContain('loadlab_workers{endpoint="ep",state="running"} 0');
    expect(m).toContain('loadlab_worker_transitions_total{endpoint="ep",from="idle",to="running"} 1');
    expect(m).toContain('loadlab_worker_transitions_total{endpoint="ep",from="running",to="idle"} 1');
    expect(m).toContain('loadlab_job_delay_seconds_count{endpoint="ep"} 1');
    // Retention (30 min) ends: the expiry is counted on the next scrape.
    await t.advance(30 * 60_000);
    const later = (await t.call('GET', '/metrics', undefined, { auth: null })).text;
    expect(later).toContain('loadlab_jobs_expired_total{endpoint="ep",reason="retention"} 1');
    expect(later).toContain('loadlab_jobs_finished_total{endpoint="ep",status="COMPLETED"} 1');
  });
});
