/**
 * The webhook allow-list holds at connect time: a name the allow-list accepts (`*.localhost`)
 * whose DNS answer is not loopback is refused, checked inside the socket's own lookup. Through
 * the HTTP API of a real server on 127.0.0.1 with an injected resolver (no real DNS), and a real
 * receiver on 127.0.0.1 that counts what reaches it.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalIp, isLoopbackAddress, isLoopbackHost } from '../../src/lib/ip-address.js';
import { WebhookTargets } from '../../src/server/webhook-targets.js';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { serve, type Served } from './serve-helper.js';

/**
 * 0.0.0.0 is not loopback, yet on Linux a connection to it lands on the local host: were the
 * answer not checked, the webhook would reach the receiver on 127.0.0.1 and count a hit.
 */
const ANSWERS: Record<string, string[]> = {
  'good.localhost': ['127.0.0.1'],
  'evil.localhost': ['0.0.0.0'],
  'mixed.localhost': ['127.0.0.1', '0.0.0.0'],
};
const resolved: string[] = [];
const fakeDns: LookupFunction = (hostname, options, callback) => {
  resolved.push(hostname);
  const list = ANSWERS[hostname];
  if (!list) return dnsLookup(hostname, options, callback);
  const all: LookupAddress[] = list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  if (options.all) callback(null, all);
  else callback(null, all[0]!.address, all[0]!.family);
};

let t: Served | undefined;
let rx: Server | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  rx?.closeAllConnections();
  await new Promise((r) => (rx ? rx.close(r) : r(undefined)));
  rx = undefined;
  resolved.length = 0;
});

/** A receiver on 127.0.0.1 answering 200; returns its port and the job ids it received. */
async function receiver(): Promise<{ port: number; hits: string[] }> {
  const hits: string[] = [];
  rx = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push((JSON.parse(body) as { id: string }).id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => rx!.listen(0, '127.0.0.1', r));
  return { port: (rx.address() as AddressInfo).port, hits };
}

/** Submits a job with this webhook, lets it finish and every attempt run; the attempts seen. */
async function deliver(url: string) {
  const attempts: Extract<SimEvent, { type: 'webhook.attempt' }>[] = [];
  const off = t!.s.sim.bus.on((e) => {
    if (e.type === 'webhook.attempt') attempts.push(e);
  });
  const r = await t!.run({ sim: { durationMs: 0 } }, { webhook: url });
  expect(r.status).toBe(200);
  await t!.advance(60_000); // the job ends, then up to 3 attempts 10 s apart
  off();
  const metrics = (await t!.call('GET', '/metrics', undefined, { auth: null })).text;
  const count = (outcome: string) =>
    Number(new RegExp(`loadlab_webhook_attempts_total\\{endpoint="ep",outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  return { id: r.body.id as string, attempts, delivered: count('delivered'), failed: count('failed'), gaveUp: count('gave-up') };
}

describe('webhook targets are checked where the socket connects', () => {
  it('a *.localhost name resolving to a non-loopback address is refused: no connection, three failed attempts', async () => {
    const { port, hits } = await receiver();
    t = await serve({}, {}, { webhookLookup: fakeDns });
    const r = await deliver(`http://evil.localhost:${port}/hook`);
    expect(hits).toEqual([]);
    expect(resolved).toContain('evil.localhost');
    expect([r.delivered, r.failed, r.gaveUp]).toEqual([0, 2, 1]);
    expect(r.attempts.map((a) => a.error)).toEqual(
      new Array(3).fill('refused: target host evil.localhost resolved to 0.0.0.0 (loopback only; add it with --webhook-allow)'),
    );
  });

  it('every address of the answer is checked, not only the first', async () => {
    const { port, hits } = await receiver();
    t = await serve({}, {}, { webhookLookup: fakeDns });
    const r = await deliver(`http://mixed.localhost:${port}/hook`);
    expect(hits).toEqual([]);
    expect(r.gaveUp).toBe(1);
    expect(r.attempts[0]!.error).toMatch(/^refused: target host mixed.localhost resolved to 0\.0\.0\.0/);
  });

  it('a name resolving to loopback, localhost and 127.0.0.1 still reach a real receiver', async () => {
    const { port, hits } = await receiver();
    t = await serve({}, {}, { webhookLookup: fakeDns });
    const ids: string[] = [];
    for (const host of ['good.localhost', 'localhost', '127.0.0.1']) {
      const r = await deliver(`http://${host}:${port}/hook`);
      expect(
        r.attempts.map((a) => [a.outcome, a.error]),
        host,
      ).toEqual([['delivered', undefined]]);
      ids.push(r.id);
    }
    expect(hits).toEqual(ids);
    expect(resolved).toEqual(expect.arrayContaining(['good.localhost', 'localhost']));
  });

  it('a name given with --webhook-allow may resolve anywhere; an allowed IP is allowed as an answer too', async () => {
    const { port, hits } = await receiver();
    t = await serve({}, {}, { webhookLookup: fakeDns, webhookAllow: ['evil.localhost'] });
    expect((await deliver(`http://evil.localhost:${port}/hook`)).attempts[0]!.outcome).toBe('delivered');
    expect(hits).toHaveLength(1);
    const targets = new WebhookTargets(['0.0.0.0']);
    expect(targets.addressAllowed('mixed.localhost', '0.0.0.0')).toBe(true);
    expect(targets.check('http://0.0.0.0:9/x').ok).toBe(true);
    expect(new WebhookTargets().check('http://0.0.0.0:9/x').ok).toBe(false);
  });
});

describe('loopback is decided by parsing addresses', () => {
  it('127.0.0.0/8, ::1 and IPv4-mapped 127.x are loopback; lookalikes are not', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f01:203]', '::1%lo']) {
      expect(isLoopbackAddress(a), a).toBe(true);
    }
    for (const a of [
      '0.0.0.0',
      '10.0.0.1',
      '128.0.0.1',
      '::',
      '::2',
      '::127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:8000:1',
      '1::1',
      '127.0.0.1.evil.com',
      '127.evil',
      'localhost',
      '',
    ]) {
      expect(isLoopbackAddress(a), a).toBe(false);
    }
    expect(canonicalIp('[0::ffff:127.0.0.1]')).toBe(canonicalIp('::ffff:7f00:1'));
  });

  it('URL hosts: IP literals by address, names only localhost and *.localhost', () => {
    for (const h of ['localhost', 'a.b.localhost', '127.0.0.2', '[::1]', '[::ffff:7f00:1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['127.0.0.1.evil.com', 'localhost.evil.com', 'notlocalhost', '[::2]', '0.0.0.0']) expect(isLoopbackHost(h), h).toBe(false);
    // WHATWG URL canonicalises numeric hosts first: 0x7f.1 is 127.0.0.1, 2130706433 too.
    expect(new WebhookTargets().check('http://0x7f.1:9/x').ok).toBe(true);
    expect(new WebhookTargets().check('http://2130706433:9/x').ok).toBe(true);
    expect(new WebhookTargets().check('http://0x0a.1:9/x').ok).toBe(false);
  });
});
