/**
 * The reference model alone on GPU types (model-hosts.ts), against the rules written out by hand:
 * the differential test holds the core to the model, this holds the model to the rules (RunPod,
 * 2026: "an endpoint lists up to 3 GPU types in priority order; when the first has no capacity its
 * workers are throttled and start on the next type that has some").
 */
import { describe, expect, it } from 'vitest';
import { modelConfig, requestsOf, type RefCase } from './case.js';
import { RefModel } from './model.js';
import { GPU_REGRESSIONS } from './regressions-gpu.js';

/** Runs `c` on the model: /health's workers at each health request (by time), and the late answers. */
function replay(c: RefCase): { workers: [number, unknown][]; late: unknown[] } {
  const m = new RefModel(modelConfig(c.config));
  const workers: [number, unknown][] = [];
  let n = 0;
  for (const cmd of c.cmds) {
    if (cmd.t === 'advance') m.advance(cmd.ms);
    for (const r of requestsOf(cmd, m.jobs.length)) {
      const a = m.request(r, n++);
      if (r.op === 'health') workers.push([m.nowMs, a!.body.workers]);
    }
  }
  return { workers, late: m.late.map((l) => ({ req: l.req, atMs: l.atMs, body: l.body })) };
}

const zero = { idle: 0, initializing: 0, running: 0, throttled: 0, unhealthy: 0 };
const byName = (name: string) => GPU_REGRESSIONS.find((r) => r.name === name)!;

describe('reference model: GPU types', () => {
  it('room for one H100-PRO: the second worker kept starts on A100', () => {
    const { workers } = replay(byName('a worker with no room on the first GPU type starts on the second'));
    expect(workers).toEqual([
      [
        0,
        {
          idle: 0,
          initializing: 2,
          ready: 0,
          running: 0,
          throttled: 0,
          unhealthy: 0,
          byGpu: { 'H100-PRO': { ...zero, initializing: 1 }, A100: { ...zero, initializing: 1 } },
        },
      ],
      [
        1000,
        {
          idle: 0,
          initializing: 0,
          ready: 2,
          running: 2,
          throttled: 0,
          unhealthy: 0,
          byGpu: { 'H100-PRO': { ...zero, running: 1 }, A100: { ...zero, running: 1 } },
        },
      ],
    ]);
  });

  it("no room on any type: throttled (on no type) until REQUEST_COUNT's target no longer wants it", () => {
    const { workers } = replay(byName("with no room on any GPU type a worker waits throttled until REQUEST_COUNT's target no longer wants it"));
    const w = (at: number, c: object, h100: object) => [at, { ...zero, ready: 0, ...c, byGpu: { 'H100-PRO': { ...zero, ...h100 }, A100: zero } }];
    expect(workers).toEqual([
      w(1, { initializing: 1, throttled: 1 }, { initializing: 1 }),
      // The first worker takes the second job at 5.5 s; the target falls to 1 at the end of that ms.
      w(5500, { running: 1, ready: 1, throttled: 1 }, { running: 1 }),
      w(5501, { running: 1, ready: 1 }, { running: 1 }),
      w(10_501, {}, {}),
    ]);
  });

  it("an engine worker on A100 decodes at A100's decodeMs (2 ms a token, not 1)", () => {
    const { late } = replay(byName("an engine worker on the fallback GPU type runs that type's engine (a slower decode)"));
    expect(late).toEqual([
      { req: 1, atMs: 4, body: { tokensAt: [1, 2, 3, 4], end: 'stop' } },
      { req: 0, atMs: 8, body: { tokensAt: [2, 4, 6, 8], end: 'stop' } },
    ]);
  });
});
