/**
 * Webhooks (spec §6, FACTS "Webhooks"): an attempt on every terminal state; success is HTTP 200;
 * otherwise up to 2 more attempts, 10 s apart; body = status body + input + webhook. The sender is
 * injected: here a function that records each attempt at its virtual time.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/contract/sim-events.js';
import { harness } from '../helpers/harness.js';

const URL = 'https://hooks.example.com/done';
const attemptsOf = (ev: SimEvent[]) => ev.filter((e): e is Extract<SimEvent, { type: 'webhook.attempt' }> => e.type === 'webhook.attempt');

describe('webhook delivery schedule', () => {
  it('sends once at the terminal instant when the receiver answers 200', () => {
    const h = harness();
    const hooks = h.webhooks();
    const ev = h.events();
    const id = h.run({ sim: { durationMs: 1500 } }, { webhook: URL }).body.id;
    h.at(100_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.attempt, a.delivery.url, a.delivery.jobId])).toEqual([[1500, 1, URL, id]]);
    expect(attemptsOf(ev)).toEqual([{ type: 'webhook.attempt', atMs: 1500, endpointId: 'ep', jobId: id, attempt: 1, outcome: 'delivered', httpStatus: 200 }]);
  });

  it('retries at +10 s and +20 s, then gives up after 3 attempts', () => {
    const h = harness();
    const hooks = h.webhooks(() => ({ httpStatus: 500 }));
    const ev = h.events();
    h.run({ sim: { durationMs: 2000 } }, { webhook: URL });
    h.at(1_000_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.attempt])).toEqual([
      [2000, 1],
      [12_000, 2],
      [22_000, 3],
    ]);
    expect(attemptsOf(ev).map((e) => [e.atMs, e.attempt, e.outcome, e.httpStatus])).toEqual([
      [2000, 1, 'failed', 500],
      [12_000, 2, 'failed', 500],
      [22_000, 3, 'gave-up', 500],
    ]);
  });

  it('stops at the first 200', () => {
    const h = harness();
    const hooks = h.webhooks((d) => ({ httpStatus: d.attempt === 2 ? 200 : 503 }));
    const ev = h.events();
    h.run({ sim: { durationMs: 0 } }, { webhook: URL });
    h.at(1_000_000);
    expect(hooks.map((a) => a.atMs)).toEqual([0, 10_000]);
    expect(attemptsOf(ev).map((e) => e.outcome)).toEqual(['failed', 'delivered']);
  });

  it('treats any status other than 200 as a failure (201, 204, 302, 404)', () => {
    for (const status of [201, 204, 302, 404]) {
      const h = harness();
      const hooks = h.webhooks(() => ({ httpStatus: status }));
      h.run({}, { webhook: URL });
      h.at(100_000);
      expect(hooks).toHaveLength(3);
    }
  });

  it('counts a transport error (no HTTP status) as a failed attempt', () => {
    const h = harness();
    h.webhooks(() => ({ error: 'ECONNREFUSED' }));
    const ev = h.events();
    h.run({ sim: { durationMs: 0 } }, { webhook: URL });
    h.at(100_000);
    expect(attemptsOf(ev).map((e) => [e.atMs, e.outcome, e.error])).toEqual([
      [0, 'failed', 'ECONNREFUSED'],
      [10_000, 'failed', 'ECONNREFUSED'],
      [20_000, 'gave-up', 'ECONNREFUSED'],
    ]);
  });

  it('schedules the next attempt 10 s after the previous was sent, even when its answer came later', () => {
    const h = harness();
    const sent: number[] = [];
    const ev = h.events();
    // The receiver answers each attempt 3 s (virtual) after it was sent.
    h.sim.webhookSender = {
      send(d, done) {
        sent.push(h.sim.nowMs);
        h.sim.sched.after(3000, () => done({ httpStatus: d.attempt === 3 ? 200 : 500 }));
      },
    };
    h.run({ sim: { durationMs: 0 } }, { webhook: URL });
    h.at(100_000);
    expect(sent).toEqual([0, 10_000, 20_000]);
    expect(attemptsOf(ev).map((e) => [e.atMs, e.outcome])).toEqual([
      [3000, 'failed'],
      [13_000, 'failed'],
      [23_000, 'delivered'],
    ]);
  });

  it('sends nothing for a job without a webhook', () => {
    const h = harness();
    const hooks = h.webhooks();
    h.run({});
    h.at(100_000);
    expect(hooks).toEqual([]);
  });
});

describe('webhook body = status body + input + webhook', () => {
  it('COMPLETED', () => {
    const h = harness({ coldStartMs: 300 });
    const hooks = h.webhooks();
    const input = { prompt: 'hi', sim: { durationMs: 700 } };
    const id = h.run(input, { webhook: URL }).body.id;
    h.at(100_000);
    expect(hooks[0]!.delivery.body).toEqual({
      id,
      status: 'COMPLETED',
      delayTime: 300,
      executionTime: 700,
      workerId: 'ep-w1',
      output: input,
      input,
      webhook: URL,
    });
  });

  it('FAILED', () => {
    const h = harness();
    const hooks = h.webhooks();
    const input = { sim: { durationMs: 50, fail: 'oops' } };
    const id = h.run(input, { webhook: URL }).body.id;
    h.at(100_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.body])).toEqual([
      [50, { id, status: 'FAILED', delayTime: 0, executionTime: 50, workerId: 'ep-w1', error: 'oops', input, webhook: URL }],
    ]);
  });

  it('TIMED_OUT', () => {
    const h = harness();
    const hooks = h.webhooks();
    const input = { sim: { durationMs: 60_000 } };
    const id = h.run(input, { webhook: URL, policy: { executionTimeout: 8000 } }).body.id;
    h.at(100_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.body])).toEqual([
      [
        8000,
        { id, status: 'TIMED_OUT', delayTime: 0, executionTime: 8000, workerId: 'ep-w1', error: 'execution timeout of 8000 ms exceeded', input, webhook: URL },
      ],
    ]);
  });

  it('CANCELLED while running', () => {
    const h = harness();
    const hooks = h.webhooks();
    const input = { sim: { durationMs: 60_000 } };
    const id = h.run(input, { webhook: URL }).body.id;
    h.at(4000);
    h.req('POST', `/cancel/${id}`);
    h.at(100_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.body])).toEqual([
      [4000, { id, status: 'CANCELLED', delayTime: 0, executionTime: 4000, workerId: 'ep-w1', input, webhook: URL }],
    ]);
  });

  it('CANCELLED while queued', () => {
    const h = harness({ workersMax: 0 });
    const hooks = h.webhooks();
    const id = h.run({ a: 1 }, { webhook: URL }).body.id;
    h.at(700);
    h.req('POST', `/cancel/${id}`);
    h.at(100_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.body])).toEqual([[700, { id, status: 'CANCELLED', input: { a: 1 }, webhook: URL }]]);
  });

  it('/runsync jobs send it too, and each retry of a job sends again', () => {
    const h = harness();
    const hooks = h.webhooks();
    const r = h.runsync({ sim: { durationMs: 100, fail: true } }, { webhook: URL });
    h.at(100);
    h.req('POST', `/retry/${r.body.id}`);
    h.at(10_000);
    expect(hooks.map((a) => [a.atMs, a.delivery.jobId, a.delivery.body.status])).toEqual([
      [100, r.body.id, 'FAILED'],
      [200, r.body.id, 'FAILED'],
    ]);
  });

  it('the retried attempts carry the same body snapshot', () => {
    const h = harness();
    const hooks = h.webhooks(() => ({ httpStatus: 500 }));
    h.run({}, { webhook: URL });
    h.at(100_000);
    expect(hooks).toHaveLength(3);
    expect(hooks[1]!.delivery.body).toEqual(hooks[0]!.delivery.body);
    expect(hooks[2]!.delivery.body).toEqual(hooks[0]!.delivery.body);
  });

  it('is not sent when a job is deleted by its ttl (not a terminal state)', () => {
    const h = harness();
    const hooks = h.webhooks();
    h.run({ sim: { durationMs: 60_000 } }, { webhook: URL, policy: { ttl: 10_000 } });
    h.at(100_000);
    expect(hooks).toEqual([]);
  });
});

describe('webhook config', () => {
  it('follows endpoint webhook.attempts and intervalMs', () => {
    const h = harness({ webhook: { attempts: 5, intervalMs: 2500 } });
    const hooks = h.webhooks(() => ({ httpStatus: 500 }));
    h.run({ sim: { durationMs: 0 } }, { webhook: URL });
    h.at(100_000);
    expect(hooks.map((a) => a.atMs)).toEqual([0, 2500, 5000, 7500, 10_000]);
  });

  it('reports attempts whose answer is still awaited', () => {
    const h = harness();
    let finish: (() => void) | undefined;
    h.sim.webhookSender = {
      send: (_d, done) => {
        finish = () => done({ httpStatus: 200 });
      },
    };
    h.run({ sim: { durationMs: 0 } }, { webhook: URL });
    h.at(1);
    expect(h.sim.webhooksInFlight).toBe(1);
    finish!();
    expect(h.sim.webhooksInFlight).toBe(0);
  });
});
