/** Spec §6 (webhooks against a real local receiver) and /stream over real HTTP, in manual time. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { serve, type Served } from '../server/serve-helper.js';
import { until } from './wait.js';

let t: Served | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
  receiver = undefined;
});

/** A webhook receiver answering `status`; records the virtual time and body of each call. */
async function listen(status: number, calls: { atMs: number; body: any }[]): Promise<string> {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      calls.push({ atMs: t!.s.sim.nowMs, body: JSON.parse(text) });
      res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}

const attempts = (events: SimEvent[]) => events.filter((e) => e.type === 'webhook.attempt') as Extract<SimEvent, { type: 'webhook.attempt' }>[];

describe('webhooks (spec §6)', () => {
  it('a failing receiver gets 3 attempts exactly 10 s apart, each awaited by /_sim/advance', async () => {
    t = await serve({ jobDurationMs: 1000 });
    const events: SimEvent[] = [];
    t.s.sim.bus.on((e) => events.push(e));
    const calls: { atMs: number; body: any }[] = [];
    const url = await listen(500, calls);
    const id = (await t.run({ q: 1 }, { webhook: url, s3Config: { accessId: 'a', accessSecret: 's', bucketName: 'b', endpointUrl: 'http://x' } })).body.id;
    await t.advance(1000);
    expect(calls.map((c) => c.atMs)).toEqual([1000]);
    expect(calls[0]!.body).toEqual({
      id,
      status: 'COMPLETED',
      delayTime: 0,
      executionTime: 1000,
      workerId: 'ep-w1',
      output: { q: 1 },
      input: { q: 1 },
      webhook: url,
    });
    await t.advance(9999);
    expect(calls).toHaveLength(1);
    await t.advance(1);
    expect(calls.map((c) => c.atMs)).toEqual([1000, 11_000]);
    await t.advance(60_000);
    expect(calls.map((c) => c.atMs)).toEqual([1000, 11_000, 21_000]);
    expect(attempts(events).map((e) => [e.attempt, e.outcome, e.httpStatus, e.atMs])).toEqual([
      [1, 'failed', 500, 1000],
      [2, 'failed', 500, 11_000],
      [3, 'gave-up', 500, 21_000],
    ]);
  });

  it('a 200 ends delivery after one attempt', async () => {
    t = await serve({ jobDurationMs: 0 });
    const calls: { atMs: number; body: any }[] = [];
    const url = await listen(200, calls);
    await t.run({}, { webhook: url });
    await t.advance(100_000);
    expect(calls).toHaveLength(1);
  });

  it('a non-loopback target is refused without a request: a failed attempt with its reason', async () => {
    t = await serve({ jobDurationMs: 0 });
    const events: SimEvent[] = [];
    t.s.sim.bus.on((e) => events.push(e));
    await t.run({}, { webhook: 'http://example.invalid/hook' });
    await t.advance(30_000);
    const a = attempts(events);
    expect(a.map((e) => e.outcome)).toEqual(['failed', 'failed', 'gave-up']);
    expect(a[0]!.error).toBe('refused: target host example.invalid not allowed (loopback only; add it with --webhook-allow)');
  });
});

describe('/stream', () => {
  const streamInFlight = () => t!.s.sim.endpoints.get('ep')!.limits.snapshot('stream', t!.s.sim.nowMs).inFlight;

  it('long-polls, then each call drains what was produced since the last one', async () => {
    t = await serve();
    const id = (await t.run({ sim: { chunks: 4, durationMs: 4000 } })).body.id;
    const held = t.call('GET', `/stream/${id}`);
    await until(() => streamInFlight() === 1, 'stream held');
    await t.advance(1000);
    expect((await held).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, stream: [{ output: { chunk: 1, of: 4 } }] });
    await t.advance(2000);
    expect((await t.call('GET', `/stream/${id}`)).body.stream).toEqual([{ output: { chunk: 2, of: 4 } }, { output: { chunk: 3, of: 4 } }]);
    await t.advance(1000);
    expect((await t.call('POST', `/stream/${id}`)).body).toEqual({ id, status: 'COMPLETED', delayTime: 0, stream: [{ output: { chunk: 4, of: 4 } }] });
  });

  it('a held stream with nothing new answers an empty list after 10 s', async () => {
    t = await serve({ jobDurationMs: 60_000 });
    const id = (await t.run()).body.id;
    const held = t.call('GET', `/stream/${id}`);
    await until(() => streamInFlight() === 1, 'stream held');
    await t.advance(9999);
    expect(streamInFlight()).toBe(1);
    await t.advance(1);
    expect((await held).body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, stream: [] });
  });

  it('splits a 2.5 MiB output into items of at most 1 MB (1 000 000 bytes)', async () => {
    t = await serve();
    const bytes = 2.5 * 1024 * 1024;
    const id = (await t.run({ sim: { outputBytes: bytes, durationMs: 100 } })).body.id;
    await t.advance(100);
    const r = await t.call('GET', `/stream/${id}`);
    expect(r.body.status).toBe('COMPLETED');
    expect(r.body.stream.map((i: { output: string }) => i.output.length)).toEqual([1_000_000, 1_000_000, 621_440]);
  });
});

describe('openai routes over HTTP', () => {
  it('answers server-sent events for stream: true', async () => {
    t = await serve({ jobDurationMs: 500 });
    const held = t.call('POST', '/openai/v1/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
    await until(() => t!.s.sim.endpoints.get('ep')!.jobs.size === 1, 'chat accepted');
    await t.advance(500);
    const r = await held;
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = r.text.split('\n\n').filter((x) => x.length > 0);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events).toHaveLength(5); // 3 words, the stop chunk, [DONE]
    expect(events[4]).toBe('data: [DONE]');
  });
});
