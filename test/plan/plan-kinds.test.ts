/**
 * `loadlab plan` over both kinds of endpoint (`--grid type=queue,load-balancer`, or the scenario's
 * plan.grid.type) through the built CLI, in one child process: scenarios/lb-vs-queue-plan.yaml
 * gives rows for both kinds with cost, TTFT and failures, and recommends the cheapest point meeting
 * the SLOs (a load-balancing point whose balancer answered "no workers available" does not);
 * shards of such a plan merge into the whole plan; traffic one kind cannot serve, or a kind that
 * does not exist, exits 2 before anything runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliResult } from '../helpers/cli-batch.js';
import { plans } from './plan-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (d: string, f: string) => readFileSync(join(d, f), 'utf8');
const EXAMPLE = 'scenarios/lb-vs-queue-plan.yaml';

function file(name: string, doc: unknown): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(f, JSON.stringify(doc));
  return f;
}
const scenario = (traffic: unknown[], extra: Record<string, unknown> = {}, type = 'queue') => ({
  name: 'kinds',
  durationMs: 10_000,
  endpoint: { type, workersMax: 1, jobDurationMs: 100, llm: { ttftMs: 50, interTokenMs: 5, outputTokens: 8 } },
  traffic,
  slo: ['ttft_p95_ms{flow=chat} < 1000'],
  ...extra,
});
const chat = { name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat', stream: true } };
const custom = { name: 'custom', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'http', method: 'POST', path: '/generate' } };
const poll = { name: 'poll', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } };

interface Row {
  workersMax: number;
  knobs: { type: string };
  meetsAll: boolean;
  measured: { jobsFailed: number[]; balancerFailed?: Record<string, number[]>; ttftP95Ms: number[]; limitedRate: number[] };
  cost: { perHour: number[] };
  erlangC: { stable: boolean; noWorkersShare?: number } | null;
}

describe('loadlab plan over both kinds of endpoint', () => {
  const out = join(dir, 'example');
  const shards = [0, 1].map((i) => join(dir, `shard${i}`));
  const small = [EXAMPLE, '--workers-max', '2..3', '--seeds', '1', '--jobs', '1'];
  let results: CliResult[] = [];
  // One child process for every command line (a few seconds, most of it the example's plan).
  beforeAll(() => {
    results = plans(
      [EXAMPLE, '--jobs', '2', '--out', out],
      [...small, '--out', join(dir, 'small')],
      [...small, '--shard', '0/2', '--out', shards[0]!],
      [...small, '--shard', '1/2', '--out', shards[1]!],
      ['merge', ...shards, '--out', join(dir, 'merged')],
      [file('http', scenario([chat, custom], {}, 'load-balancer')), '--grid', 'type=queue,load-balancer', '--out', join(dir, 'never')],
      [file('poll', { ...scenario([chat, poll]), plan: { grid: { type: ['queue', 'load-balancer'] } } }), '--out', join(dir, 'never')],
      [file('chat', scenario([chat])), '--grid', 'type=queue,balancer', '--out', join(dir, 'never')],
      [join(dir, 'chat.json'), '--grid', 'type=queue,load-balancer', '--grid', 'scaler.type=QUEUE_DELAY,REQUEST_COUNT', '--out', join(dir, 'never')],
    );
  }, 180_000);

  test('lb-vs-queue-plan.yaml: rows for both kinds with cost, TTFT and failures; the cheapest point meeting the SLOs is recommended', () => {
    const r = results[0]!;
    expect(r.status, r.stderr).toBe(0);
    const p = JSON.parse(read(out, 'plan.json'));
    // The balancer's failures count against the SLOs: the plan adds balancer_failed == 0.
    expect(p.slo).toEqual({ source: 'slo', exprs: ['ttft_p95_ms{flow=chat} < 1000', 'balancer_failed == 0'], added: ['balancer_failed == 0'] });
    const rows = p.rows as Row[];
    expect(rows.map((x) => `${x.knobs.type} ${x.workersMax}`)).toEqual(
      [1, 2, 3, 4].flatMap((w) => [`queue ${w}`]).concat([1, 2, 3, 4].map((w) => `load-balancer ${w}`)),
    );
    for (const x of rows) {
      expect(x.cost.perHour.every((c) => c > 0)).toBe(true);
      expect(x.measured.ttftP95Ms.every((t) => t > 0)).toBe(true);
      expect(x.measured.jobsFailed).toHaveLength(2);
      // The balancer's causes on load-balancing points only.
      expect(x.measured.balancerFailed !== undefined).toBe(x.knobs.type === 'load-balancer');
    }
    // One worker of 8 for ~14 chats in flight: the queue endpoint queues them (and throttles with
    // 429s), the load-balancing one answers "no workers available" after 2 min.
    const at = (type: string, w: number) => rows.find((x) => x.knobs.type === type && x.workersMax === w)!;
    const q1 = at('queue', 1);
    const lb1 = at('load-balancer', 1);
    expect(q1.measured.jobsFailed).toEqual([0, 0]);
    expect(Math.min(...q1.measured.limitedRate)).toBeGreaterThan(0.1);
    expect(Math.min(...lb1.measured.balancerFailed!['no-workers']!)).toBeGreaterThan(100);
    expect(lb1.measured.jobsFailed).toEqual(lb1.measured.balancerFailed!['no-workers']);
    expect(lb1.meetsAll).toBe(false);
    // Erlang C beside it: an LB point's share past the balancer's 2 min (none at 3 workers).
    expect(at('load-balancer', 3).erlangC).toMatchObject({ stable: true, noWorkersShare: 0 });
    expect(at('queue', 3).erlangC).not.toHaveProperty('noWorkersShare');

    const rec = p.recommendation;
    expect(rec).toMatchObject({ workersMax: 3, knobs: { type: 'load-balancer' }, cheapestBy: 'cost per hour' });
    expect(rec.cost.perHour).toBeCloseTo(2.0173, 4);
    const best = at('load-balancer', 3);
    expect(best.meetsAll).toBe(true);
    expect(at('queue', 3).meetsAll).toBe(true);
    expect(Math.min(...at('queue', 3).cost.perHour)).toBeGreaterThan(Math.max(...best.cost.perHour));

    expect(r.stdout).toContain('RECOMMENDATION: workersMax 3 with type=load-balancer');
    expect(r.stdout).toMatch(/^ {2}queue: workersMax 3, \$2\.15\d* per hour, TTFT p95 \d+–\d+ ms, failed 0 \(2 of 4 points meet every SLO\)$/m);
    expect(r.stdout).toMatch(/^ {2}load-balancer: workersMax 3, \$2\.01\d* per hour, TTFT p95 \d+–\d+ ms, failed 0 \(2 of 4 points meet every SLO\)$/m);
    const md = read(out, 'plan.md');
    expect(md).toContain('## Queue or load-balancing endpoint');
    expect(md).toMatch(/\| load-balancer \| workersMax 3 \| \$2\.02 \| \d+–\d+ \| 0 \| 2 of 4 \|/);
    expect(md).toMatch(/\| 1 \| type=load-balancer \| ◆ \| no \| .* \| \d+–\d+ \(no-workers \d+–\d+\) \|/);
    expect(md).toContain('`balancer_failed == 0` (added by loadlab');
    // Erlang C's departures name each kind's scaler: QUEUE_DELAY 2 s on queue points, REQUEST_COUNT at workerConcurrency on the others.
    expect(md).toContain('Scaler lag (queue points): workers between workersMin and workersMax start only when jobs have waited 2 s (QUEUE_DELAY)');
    expect(md).toContain(
      'Scaler lag (load-balancing points): workers between workersMin and workersMax start only at workerConcurrency requests in flight per worker (REQUEST_COUNT)',
    );
    expect(read(out, 'plan.html')).toContain('<h2>Queue or load-balancing endpoint</h2>');
  });

  test('shards of a plan over both kinds merge into the whole plan', () => {
    for (const r of results.slice(1, 5)) expect(r.status, r.stderr).toBe(0);
    for (const f of ['plan.json', 'plan.md']) expect(read(join(dir, 'merged'), f), f).toBe(read(join(dir, 'small'), f));
  });

  test('traffic a kind cannot serve exits 2 before anything runs, naming the flow, its behaviour and the kind', () => {
    const [http, poll, badType, queueDelay] = results.slice(5);
    expect(http!.status, http!.stderr).toBe(2);
    expect(http!.stderr).toContain('--grid: type=queue: flow "custom" (behaviour http) cannot run on a queue endpoint');
    expect(http!.stderr).not.toContain('flow "chat"');
    expect(poll!.status, poll!.stderr).toBe(2);
    expect(poll!.stderr).toContain(
      `${join(dir, 'poll.json')}: plan.grid: type=load-balancer: flow "poll" (behaviour run-poll) cannot run on a load-balancer endpoint`,
    );
    expect(badType!.status, badType!.stderr).toBe(2);
    expect(badType!.stderr).toContain('--grid "type=queue,balancer": type value "balancer" is not an endpoint type; types: queue, load-balancer');
    // A grid's own QUEUE_DELAY is not turned into the load-balancing default: the point is refused.
    expect(queueDelay!.status, queueDelay!.stderr).toBe(2);
    expect(queueDelay!.stderr).toContain(
      '--grid: scaler.type: a load-balancing endpoint scales by REQUEST_COUNT (requests in flight per worker): it has no queue for QUEUE_DELAY to measure (in type=load-balancer, scaler.type=QUEUE_DELAY)',
    );
    expect(queueDelay!.stderr).not.toContain('scaler.type=REQUEST_COUNT)');
  });
});
