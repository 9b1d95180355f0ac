/**
 * CONTRACT §3: the built-in worker echoes its input; `input.sim` steers one job, over the
 * endpoint's workload model (sim/workload.ts). Each directive's effect, seen through /status.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

describe('input.sim directives', () => {
  it("without directives the output is the input and the duration is the endpoint's jobDurationMs", () => {
    const h = harness({ jobDurationMs: 2500 });
    const id = h.run({ text: 'hi', n: [1, 2] }).body.id;
    h.at(2500);
    expect(h.status(id).body).toEqual({ id, status: 'COMPLETED', delayTime: 0, executionTime: 2500, workerId: 'ep-w1', output: { text: 'hi', n: [1, 2] } });
  });

  it('durationMs 0 completes at the submission instant', () => {
    const h = harness();
    h.at(300);
    const id = h.run({ sim: { durationMs: 0 } }).body.id;
    h.at(300);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', delayTime: 0, executionTime: 0 });
  });

  it('fail: true fails with the default error, fail: "msg" with that error', () => {
    const h = harness();
    const a = h.run({ sim: { fail: true } }).body.id;
    const b = h.run({ sim: { fail: 'GPU out of memory' } }).body.id;
    h.at(10_000);
    expect(h.status(a).body.error).toBe('simulated failure');
    expect(h.status(b).body.error).toBe('GPU out of memory');
  });

  it("fail: false overrides the endpoint's failure probability", () => {
    const h = harness({ workload: { failureProbability: 1 } });
    const a = h.run({ sim: { fail: false } }).body.id;
    const b = h.run({}).body.id;
    h.at(10_000);
    expect(h.status(a).body.status).toBe('COMPLETED');
    expect(h.status(b).body).toMatchObject({ status: 'FAILED', error: 'simulated failure' });
  });

  it('output replaces the echo, whatever JSON it is (null included)', () => {
    const h = harness();
    const outs = [null, 0, 'text', [1, { a: 2 }], { deep: { x: true } }];
    const ids = outs.map((output) => h.run({ sim: { output } }).body.id as string);
    h.at(10_000);
    expect(ids.map((id) => h.status(id).body.output)).toEqual(outs);
  });

  it("a per-job outputBytes wins over output; an explicit output wins over the endpoint's outputBytes", () => {
    const h = harness({ workload: { outputBytes: 10 } });
    const a = h.run({ sim: { output: 'o', outputBytes: 3 } }).body.id;
    const b = h.run({ sim: { output: 'o' } }).body.id;
    const c = h.run({}).body.id;
    h.at(10_000);
    expect(h.status(a).body.output).toBe('xxx');
    expect(h.status(b).body.output).toBe('o');
    expect(h.status(c).body.output).toBe('x'.repeat(10));
  });

  it('chunks with output: every partial output is that output', () => {
    const h = harness();
    const id = h.run({ sim: { chunks: 2, output: { p: 1 }, durationMs: 100 } }).body.id;
    h.at(100);
    expect(h.req('GET', `/stream/${id}`).body.stream).toEqual([{ output: { p: 1 } }, { output: { p: 1 } }]);
  });

  it("the endpoint's workload.chunks applies to jobs without a chunks directive", () => {
    const h = harness({ jobDurationMs: 900, workload: { chunks: 3 } });
    const id = h.run({}).body.id;
    h.at(900);
    expect(h.req('GET', `/stream/${id}`).body.stream).toEqual([
      { output: { chunk: 1, of: 3 } },
      { output: { chunk: 2, of: 3 } },
      { output: { chunk: 3, of: 3 } },
    ]);
  });

  it('crash: false does nothing', () => {
    const h = harness();
    const id = h.run({ sim: { crash: false, durationMs: 100 } }).body.id;
    h.at(100);
    expect(h.status(id).body).toMatchObject({ status: 'COMPLETED', executionTime: 100 });
    expect(h.status(id).body.retries).toBeUndefined();
  });

  it('a crash past the execution timeout never happens: the job times out first', () => {
    const h = harness();
    const id = h.run({ sim: { crash: true, durationMs: 20_000 } }, { policy: { executionTimeout: 6000 } }).body.id;
    h.at(6000);
    expect(h.status(id).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 6000 });
    expect(h.req('GET', '/health').body.jobs.retried).toBe(0);
  });

  it('a seeded failure probability fails the same jobs for the same seed', () => {
    const statuses = (seed: number) => {
      const h = harness({ workload: { failureProbability: 0.5 }, workersMax: 10 }, { seed });
      const ids = Array.from({ length: 20 }, () => h.run({}).body.id as string);
      h.at(100_000);
      return ids.map((id) => h.status(id).body.status as string);
    };
    const a = statuses(3);
    expect(statuses(3)).toEqual(a);
    expect(a).toContain('FAILED');
    expect(a).toContain('COMPLETED');
  });
});
