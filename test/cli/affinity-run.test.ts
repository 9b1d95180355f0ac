/**
 * `client.affinity` through the built CLI: a flow on a load-balancing endpoint sends back the
 * worker id an answer carried (X-Runpod-Worker-Id). A multi-turn chat with soft affinity keeps
 * each session on one worker, so the workers' prefix caches hit more often than when the balancer
 * spreads the turns; strict affinity to a worker that stopped during the think time ends the turn
 * with the balancer's 404 (counted worker-gone), strict-resume starts the worker again. The same
 * figures in process and in lockstep against serve (the header sent and read over HTTP). A queue
 * endpoint refuses the key (exit 2).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../src/report/run-result.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-affinity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
delete env.RUNPOD_API_KEY;
const cli = (...args: string[]) => spawnSync('node', ['bin/loadlab.js', ...args], { encoding: 'utf8', env, timeout: 90_000 });

function file(name: string, content: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(content));
  return f;
}

/** Runs `scenario` (extra CLI args after it) and returns its report. */
function run(scenario: string, out: string, ...args: string[]): RunResult {
  const r = cli('run', scenario, '--out', join(dir, out), ...args);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as RunResult;
}

/**
 * Four warm workers with prefix caching; sessions of 4 turns, each turn's prompt the whole
 * conversation so far (500 new tokens a turn), 2 s apart: what a turn can find cached is its own
 * session's earlier turns, on the worker that served them.
 */
const chat = (affinity?: string) =>
  file(`chat-${affinity ?? 'none'}.json`, {
    name: 'affinity-chat',
    seed: 1,
    durationMs: 20_000,
    drainMs: 60_000,
    endpoint: {
      id: 'lb',
      type: 'load-balancer',
      workersMin: 4,
      workersMax: 4,
      workerConcurrency: 8,
      llm: { engine: { decodeMs: 6.5, perSequenceMs: 0.3, prefillMsPerToken: 0.08, overheadMs: 30, prefixCaching: true }, outputTokens: 20 },
    },
    traffic: [
      {
        name: 'chat',
        arrival: { process: 'poisson', ratePerSec: 1 },
        client: { behaviour: 'openai-chat', stream: true, maxTokens: 20, promptTokens: 500, turns: 4, thinkTimeMs: 2000, ...(affinity ? { affinity } : {}) },
      },
    ],
  });

/** Workers stop 1 s after their last request; a session's next turn comes 5 s after an answer: its worker has stopped. */
const strict = (affinity: string) =>
  file(`strict-${affinity}.json`, {
    name: 'affinity-strict',
    seed: 1,
    durationMs: 30_000,
    drainMs: 60_000,
    endpoint: {
      id: 'lb',
      type: 'load-balancer',
      workersMax: 4,
      workerConcurrency: 4,
      idleTimeoutMs: 1000,
      coldStartMs: 2000,
      llm: { ttftMs: 100, interTokenMs: 10, outputTokens: 20 },
    },
    traffic: [{ name: 'chat', arrival: { process: 'poisson', ratePerSec: 0.2 }, client: { behaviour: 'openai-chat', turns: 3, thinkTimeMs: 5000, affinity } }],
  });

/** An http flow, strict: a request every 3 s, and the worker that answered the previous one stopped 1 s after it. */
const httpStrict = (durationMs: number) =>
  file(`http-strict-${durationMs}.json`, {
    name: 'affinity-http',
    seed: 1,
    durationMs,
    drainMs: 10_000,
    openModel: { lateAfterMs: 5000 },
    endpoint: { id: 'lb', type: 'load-balancer', workersMax: 2, idleTimeoutMs: 1000, coldStartMs: 500, jobDurationMs: 200 },
    traffic: [{ name: 'gen', arrival: { process: 'constant', ratePerSec: 1 / 3 }, client: { behaviour: 'http', path: '/generate', affinity: 'strict' } }],
  });

/** `loadlab serve --config f` (`--clock manual` by default, for lockstep): its /v2 base once it listens, and a stop. */
function serve(config: string, clock = ['--clock', 'manual']): Promise<{ base: string; stop(): void }> {
  const srv = spawn('node', ['bin/loadlab.js', 'serve', '--port', '0', ...clock, '--config', config, '--api-key', 'k'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15_000);
    srv.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const base = /http:\/\/\S+\/v2/.exec(out)?.[0];
      if (base) {
        clearTimeout(t);
        resolve({ base, stop: () => srv.kill('SIGTERM') });
      }
    });
    srv.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

async function lockstep(scenario: string, out: string): Promise<RunResult> {
  const s = await serve(scenario);
  try {
    return run(scenario, out, '--target', s.base, '--lockstep', '--api-key', 'k');
  } finally {
    s.stop();
  }
}

describe('loadlab run: client.affinity on a load-balancing endpoint', () => {
  test('soft affinity keeps each chat session on one worker: the prefix cache hit rate rises well above the spread turns', () => {
    const none = run(chat(), 'chat-none');
    const soft = run(chat('soft'), 'chat-soft');
    for (const r of [none, soft]) {
      expect(r.flows.chat!.outcomes).toEqual({ COMPLETED: none.flows.chat!.sessions });
      expect(r.operations.lb!.requests).toBe(4 * none.flows.chat!.sessions);
    }
    const rate = (r: RunResult) => r.flows.chat!.stream!.prefixCacheHitRate!;
    // Each turn after the first finds its session's history: about 3/4 of its prompt, if it reaches the same worker.
    expect(rate(soft)).toBeGreaterThan(0.5);
    expect(rate(soft) - rate(none)).toBeGreaterThan(0.2);
  }, 60_000);

  test('strict to a worker that stopped: 404 affinity_worker_gone, counted worker-gone, the session over; strict-resume starts the worker again', () => {
    const st = run(strict('strict'), 'strict');
    const sessions = st.flows.chat!.sessions;
    expect(sessions).toBeGreaterThan(3);
    // Every session's second turn asks for its stopped worker.
    expect(st.operations.lb!.balancerFailed).toEqual({ 'no-workers': 0, timeout: 0, dropped: 0, 'worker-timeout': 0, 'worker-gone': sessions });
    expect(st.operations.lb!.byStatus).toEqual({ '200': sessions, '404': sessions });
    const resume = run(strict('strict-resume'), 'resume');
    expect(resume.operations.lb!.balancerFailed!['worker-gone']).toBe(0);
    expect(resume.flows.chat!.outcomes).toEqual({ COMPLETED: sessions });
    expect(resume.operations.lb!.byStatus).toEqual({ '200': 3 * sessions });
  }, 60_000);

  test('in lockstep against serve: the same figures as in process (the header goes and comes back over HTTP)', async () => {
    const soft = await lockstep(chat('soft'), 'lockstep-soft');
    const inProcess = JSON.parse(readFileSync(join(dir, 'chat-soft', 'report.json'), 'utf8')) as RunResult;
    expect(soft.flows.chat!.stream!.prefixCacheHitRate).toBe(inProcess.flows.chat!.stream!.prefixCacheHitRate);
    const st = await lockstep(strict('strict'), 'lockstep-strict');
    expect(st.operations.lb!.balancerFailed!['worker-gone']).toBe(st.flows.chat!.sessions);
  }, 120_000);

  test('an http flow with strict affinity sticks to the worker of its latest answer; one gone clears it, and the next request goes anywhere (in process, and over HTTP in real time)', async () => {
    const r = run(httpStrict(20_000), 'http-strict');
    const n = r.flows.gen!.sessions;
    expect(n).toBe(7);
    // Request 1 has no worker to ask for; then gone, anywhere, gone, …: every other request after the first fails.
    expect(r.operations.lb!.balancerFailed!['worker-gone']).toBe(3);
    expect(r.flows.gen!.outcomes.COMPLETED).toBe(4);
    // Over HTTP against serve's real clock: three requests, the second asks for a worker that stopped.
    const short = httpStrict(7000);
    const s = await serve(short, []);
    try {
      const h = run(short, 'http-strict-wall', '--target', s.base, '--api-key', 'k');
      expect(h.operations.lb!.byStatus).toEqual({ '200': 2, '404': 1 });
      expect(h.operations.lb!.balancerFailed!['worker-gone']).toBe(1);
    } finally {
      s.stop();
    }
  }, 60_000);

  test('a queue endpoint refuses affinity: exit 2 naming the flow and the field', () => {
    const f = file('queue.json', {
      name: 'queue',
      durationMs: 1000,
      endpoint: { id: 'q' },
      traffic: [{ name: 'talk', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat', affinity: 'soft' } }],
    });
    const r = cli('run', f, '--out', join(dir, 'queue'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('traffic.0.client.affinity');
    expect(r.stderr).toContain('flow "talk": affinity needs a load-balancing endpoint');
  });
});
