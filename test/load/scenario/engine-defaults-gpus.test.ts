/**
 * vLLM's batch limits on an endpoint listing its GPU types (`gpus`): the engine takes the first
 * type's (1024 / 8192 on H100-class, 256 / 2048 on others), and each other type of the other
 * class its own in `llm.engine.byGpu`, for the keys neither the engine nor its entry gives. A
 * plan's grid point listing other types fills them again from what the scenario gave.
 */
import { describe, expect, test } from 'vitest';
import { engineOn } from '../../../src/contract/llm-config.js';
import { parseScenario } from '../../../src/load/scenario/loader.js';
import type { Scenario } from '../../../src/load/scenario/schema.js';
import { pointScenario } from '../../../src/plan/sweep-point.js';

function load(gpus: string[] | undefined, engine: Record<string, unknown> = {}) {
  const r = parseScenario(
    {
      name: 'gpus-defaults',
      durationMs: 1000,
      endpoint: { id: 'llm', ...(gpus ? { gpus } : {}), llm: { engine: { decodeMs: 5, ...engine }, outputTokens: 4 } },
      traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat' } }],
    },
    'gpus-defaults.yaml',
  );
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r;
}
const limits = (sc: Scenario, gpu?: string) => {
  const e = engineOn(sc.endpoint.llm!.engine!, gpu);
  return [e.maxNumSeqs, e.maxNumBatchedTokens];
};

describe('endpoint.gpus: the engine limits on each type', () => {
  test('[H100-PRO, A100]: 1024 / 8192 on the H100-PRO, 256 / 2048 on the A100 (in byGpu)', () => {
    const { scenario: sc } = load(['H100-PRO', 'A100']);
    expect(limits(sc, 'H100-PRO')).toEqual([1024, 8192]);
    expect(limits(sc, 'A100')).toEqual([256, 2048]);
    expect(sc.endpoint.llm!.engine!.byGpu).toEqual({ A100: { maxNumSeqs: 256, maxNumBatchedTokens: 2048 } });
  });
  test('[A100, L4]: one class, no byGpu entry; [A100, H200]: the H200 gets its own', () => {
    expect(load(['A100', 'L4']).scenario.endpoint.llm!.engine!.byGpu).toBeUndefined();
    const { scenario: sc } = load(['A100', 'H200']);
    expect([limits(sc, 'A100'), limits(sc, 'H200')]).toEqual([
      [256, 2048],
      [1024, 8192],
    ]);
  });
  test('a key the engine gives holds on every type; a key its byGpu entry gives holds on that type', () => {
    const { scenario: sc } = load(['H100-PRO', 'A100'], { maxNumSeqs: 64, byGpu: { A100: { decodeMs: 9, maxNumBatchedTokens: 1024 } } });
    expect(limits(sc, 'H100-PRO')).toEqual([64, 8192]);
    expect(limits(sc, 'A100')).toEqual([64, 1024]);
    expect(engineOn(sc.endpoint.llm!.engine!, 'A100').decodeMs).toBe(9);
  });
});

describe("a plan's grid point on another list: the defaults follow its list", () => {
  const point = (r: ReturnType<typeof load>, gpus: string[]) =>
    pointScenario(
      { scenario: r.scenario, slos: [], workersMin: 0, ...(r.engineGiven ? { engineGiven: r.engineGiven } : {}) },
      { workersMax: 1, knobs: { gpus } },
    );

  test('loaded on [H100-PRO, A100]; points [A100], [A100, H100-PRO] and [H100-PRO]', () => {
    const r = load(['H100-PRO', 'A100'], { byGpu: { A100: { decodeMs: 9 } } });
    const a = point(r, ['A100']);
    expect(limits(a, 'A100')).toEqual([256, 2048]);
    expect(a.endpoint.llm!.engine!.byGpu).toEqual({ A100: { decodeMs: 9 } });
    const both = point(r, ['A100', 'H100-PRO']);
    expect([limits(both, 'A100'), limits(both, 'H100-PRO')]).toEqual([
      [256, 2048],
      [1024, 8192],
    ]);
    expect(engineOn(both.endpoint.llm!.engine!, 'A100').decodeMs).toBe(9);
    const h = point(r, ['H100-PRO']);
    expect(limits(h, 'H100-PRO')).toEqual([1024, 8192]);
    expect(h.endpoint.llm!.engine!.byGpu).toBeUndefined(); // the A100 entry is not of this list
  });
  test('loaded with no GPU named (loadlab 256 / 8192), a given key kept: the point takes its list for the rest', () => {
    const r = load(undefined, { maxNumSeqs: 100 });
    expect(limits(r.scenario)).toEqual([100, 8192]);
    expect(limits(point(r, ['A100']), 'A100')).toEqual([100, 2048]);
  });
  test('hostCapacity keeps the types of the list', () => {
    const r = parseScenario(
      {
        name: 'cap',
        durationMs: 1000,
        endpoint: { id: 'ep', gpus: ['H100-PRO', 'A100'], hostCapacity: { 'H100-PRO': 1, A100: 2 } },
        traffic: [{ name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
      },
      'cap.yaml',
    );
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const sc = pointScenario({ scenario: r.scenario, slos: [], workersMin: 0 }, { workersMax: 1, knobs: { gpus: ['A100'] } });
    expect(sc.endpoint.gpus).toEqual(['A100']);
    expect(sc.endpoint.hostCapacity).toEqual({ A100: 2 });
  });
});
