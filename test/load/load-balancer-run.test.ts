/**
 * `loadlab run` against a load-balancing endpoint, in process (docs/run.md "Load-balancing
 * endpoints"): the flows that fit it, the balancer's answers counted by cause in report.json,
 * report.md and metrics.om, the balancer_failed threshold, a queue behaviour refused before the run,
 * and how --target maps onto the endpoint's base.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import type { Scenario } from '../../src/load/scenario/schema.js';
import { balancerUrls } from '../../src/load/targets/balancer-url.js';
import { balancerCause } from '../../src/load/record/balancer-cause.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { renderOpenMetrics } from '../../src/report/render-openmetrics.js';

function scenario(raw: Record<string, unknown>): Scenario {
  const l = parseScenario({ name: 'lb', ...raw }, 's.yaml');
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return l.scenario;
}

const failing = {
  durationMs: 60_000,
  drainMs: 400_000,
  // One worker, 50 s per request: most requests find no worker within 2 min (503); a crash drops one (502);
  // a request of 400 s runs past the balancer's 330 s (504), its client waiting longer.
  endpoint: { type: 'load-balancer', workersMax: 1, coldStartMs: 1000, jobDurationMs: 50_000 },
  traffic: [
    { name: 'generate', arrival: { process: 'constant', ratePerSec: 0.5 }, client: { behaviour: 'http', path: '/generate', body: { prompt: 'x #{{seq}}' } } },
    {
      name: 'crash',
      arrival: { process: 'constant', ratePerSec: 0.05 },
      client: { behaviour: 'http', path: '/c', body: { sim: { durationMs: 1000, crash: true } } },
    },
    {
      name: 'slow',
      arrival: { process: 'constant', ratePerSec: 0.02 },
      client: { behaviour: 'http', method: 'PUT', path: '/s', body: { sim: { durationMs: 400_000 } }, timeoutMs: 400_000 },
    },
  ],
  thresholds: ['balancer_failed{cause=no-workers} > 0', 'balancer_failed{cause=dropped} == 0', 'balancer_failed < 1000'],
};

describe('loadlab run: a load-balancing endpoint in process', () => {
  it("counts the balancer's answers by cause in report.json (operations.lb.balancerFailed), report.md and metrics.om, and checks balancer_failed thresholds", async () => {
    const r = await runScenario(scenario(failing));
    const lb = r.operations.lb!;
    expect(Object.keys(r.operations)).toEqual(['lb']);
    const f = lb.balancerFailed!;
    expect(f['no-workers']).toBe(lb.byStatus['503']);
    expect(f['no-workers']).toBeGreaterThan(10);
    expect(f.dropped).toBe(lb.byStatus['502']);
    expect(f.dropped).toBeGreaterThan(0);
    expect(f.timeout).toBe(lb.byStatus['504']);
    expect(f.timeout).toBeGreaterThan(0);
    expect([f['worker-timeout'], f['worker-gone']]).toEqual([0, 0]);
    expect(r.flows.generate!.outcomes.COMPLETED).toBeGreaterThan(0);
    // A request the balancer ended is a job the endpoint took: FAILED (no workers, dropped) or TIMED_OUT (504).
    expect(r.flows.generate!.outcomes.FAILED).toBeGreaterThan(0);
    expect(r.flows.slow!.outcomes.TIMED_OUT).toBe(f.timeout);
    expect(r.jobs.accepted).toBe(lb.requests);
    expect(r.thresholds.map((t) => [t.expr, t.ok])).toEqual([
      ['balancer_failed{cause=no-workers} > 0', true],
      ['balancer_failed{cause=dropped} == 0', false],
      ['balancer_failed < 1000', true],
    ]);
    expect(renderMarkdown(r)).toContain(`no-workers ${f['no-workers']}, timeout ${f.timeout}, dropped ${f.dropped}`);
    const om = renderOpenMetrics(r, 1_700_000_000_000);
    expect(om).toMatch(new RegExp(`loadlab_balancer_requests_failed_total\\{[^}]*cause="no-workers"\\} ${f['no-workers']} `));
  });

  it('openai-chat on a load-balancing endpoint sends /v1/chat/completions under its base (operation lb), streamed', async () => {
    const r = await runScenario(
      scenario({
        durationMs: 10_000,
        endpoint: { type: 'load-balancer', workersMin: 1, workersMax: 1, workerConcurrency: 4, llm: { ttftMs: 100, interTokenMs: 10, outputTokens: 8 } },
        traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat', stream: true } }],
      }),
    );
    expect(Object.keys(r.operations)).toEqual(['lb']);
    expect(r.operations.lb!.byStatus).toEqual({ '200': 10 });
    expect(r.flows.chat!.operation).toBe('lb');
    expect(r.flows.chat!.outcomes).toEqual({ COMPLETED: 10 });
    expect(r.flows.chat!.stream!.tokens).toBe(80);
  });

  it("the http behaviour: method, path and expected status; a worker's 500 is a FAILED job, another 2xx a rejected request", async () => {
    const r = await runScenario(
      scenario({
        durationMs: 5000,
        endpoint: { type: 'load-balancer', workersMin: 1, jobDurationMs: 10 },
        traffic: [
          { name: 'ok', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'http', method: 'GET', path: '/ping' } },
          { name: 'fails', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'http', path: '/x', body: { sim: { fail: 'boom' } } } },
          { name: 'expects201', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'http', path: '/x', expectStatus: 201 } },
        ],
      }),
    );
    expect(r.flows.ok!.outcomes).toEqual({ COMPLETED: 5 });
    expect(r.flows.fails!.outcomes).toEqual({ FAILED: 5 });
    expect(r.flows.expects201!.outcomes).toEqual({ rejected: 5 });
    expect(r.operations.lb!.byStatus).toEqual({ '200': 10, '500': 5 });
  });

  it('a queue behaviour aimed at a load-balancing endpoint is refused before the run, naming the behaviour and the endpoint type; http at a queue endpoint too', () => {
    for (const behaviour of ['run-poll', 'runsync', 'run-stream', 'run-webhook', 'purge-queue']) {
      const l = parseScenario(
        {
          name: 'x',
          durationMs: 1000,
          endpoint: { type: 'load-balancer' },
          traffic: [{ name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour } }],
        },
        's.yaml',
      );
      expect(l.ok).toBe(false);
      if (l.ok) continue;
      expect(l.issues).toHaveLength(1);
      expect(l.issues[0]!.path).toBe('traffic.0.client.behaviour');
      expect(l.issues[0]!.message).toContain(`behaviour ${behaviour} needs a queue endpoint, but endpoint.type is load-balancer`);
    }
    const q = parseScenario(
      { name: 'x', durationMs: 1000, traffic: [{ name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'http' } }] },
      's.yaml',
    );
    expect(q.ok).toBe(false);
    if (!q.ok) expect(q.issues[0]!.message).toContain('behaviour http needs a load-balancing endpoint');
    // openai-chat and health take either.
    for (const behaviour of ['openai-chat', 'health'])
      expect(
        parseScenario(
          {
            name: 'x',
            durationMs: 1000,
            endpoint: { type: 'load-balancer' },
            traffic: [{ name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour } }],
          },
          's.yaml',
        ).ok,
      ).toBe(true);
  });
});

describe('--target for a load-balancing endpoint', () => {
  it.each([
    ['https://api.runpod.ai', 'https://abc123.api.runpod.ai', 'https://api.runpod.ai/v2'],
    ['https://api.runpod.ai/v2/', 'https://abc123.api.runpod.ai', 'https://api.runpod.ai/v2'],
    ['https://abc123.api.runpod.ai', 'https://abc123.api.runpod.ai', 'https://api.runpod.ai/v2'],
    ['http://127.0.0.1:8080/v2', 'http://127.0.0.1:8080/lb/abc123', 'http://127.0.0.1:8080/v2'],
    ['http://127.0.0.1:8080/lb/abc123/', 'http://127.0.0.1:8080/lb/abc123', 'http://127.0.0.1:8080/v2'],
    ['https://lb.example.com/base', 'https://lb.example.com/base', 'https://lb.example.com/base/v2'],
  ])('%s → %s (and %s for /health)', (target, balancer, queue) => {
    expect(balancerUrls(target, 'abc123')).toEqual({ balancer, queue });
  });
});

describe("the balancer's answers, told from a worker's", () => {
  it.each([
    [503, { error: 'no workers available' }, 'no-workers'],
    [504, { error: 'request timed out after 330000 ms' }, 'timeout'],
    [504, undefined, 'timeout'],
    [502, 'Bad Gateway', 'dropped'],
    [400, { error: 'worker_timeout' }, 'worker-timeout'],
    [404, { error: 'affinity_worker_gone' }, 'worker-gone'],
    [503, { error: 'model loading' }, undefined],
    [404, { error: 'not found' }, undefined],
    [500, { error: 'boom' }, undefined],
    [200, { error: 'no workers available' }, undefined],
  ])('%s %j → %s', (status, body, cause) => {
    expect(balancerCause({ status, body })).toBe(cause);
  });
});
