/**
 * Validated configuration is deep-frozen (src/contract/deep-freeze.ts): a change after validation
 * throws (ES modules are strict) instead of running something other than what was checked.
 */
import { describe, expect, it } from 'vitest';
import { parseSimConfig } from '../../src/contract/endpoint-config.js';
import { loadScenarioFile, parseScenario } from '../../src/load/scenario/loader.js';

describe('validated configuration is frozen', () => {
  it('a loaded scenario, at every depth', () => {
    const l = loadScenarioFile('scenarios/steady-mix.yaml');
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const sc = l.scenario as any;
    expect(() => {
      sc.seed = 7;
    }).toThrow(TypeError);
    expect(() => {
      sc.endpoint.id = 'other';
    }).toThrow(TypeError);
    expect(() => {
      sc.endpoint.limits.enabled = false;
    }).toThrow(TypeError);
    expect(() => {
      sc.traffic[0].arrival.ratePerSec = 1;
    }).toThrow(TypeError);
    expect(() => sc.traffic.push(sc.traffic[0])).toThrow(TypeError);
    expect(() => sc.thresholds.sort()).toThrow(TypeError);
  });

  it('a replay trace read by the loader', () => {
    const l = parseScenario(
      {
        name: 'replayed',
        durationMs: 1000,
        endpoint: { id: 'ep' },
        traffic: [{ name: 'r', arrival: { process: 'replay', timestampsMs: [0, 10, 20] }, client: { behaviour: 'run-poll' } }],
      },
      'inline.yaml',
    );
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const a = l.scenario.traffic[0]!.arrival as any;
    expect(() => {
      a.timestampsMs[0] = 5;
    }).toThrow(TypeError);
  });

  it('a parsed sim config', () => {
    const r = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep' }] });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const c = r.config as any;
    expect(() => {
      c.seed = 2;
    }).toThrow(TypeError);
    expect(() => {
      c.endpoints[0].workersMax = 99;
    }).toThrow(TypeError);
    expect(() => c.apiKeys.push('k')).toThrow(TypeError);
  });
});
