/**
 * RunOptions.signal (Ctrl-C): the run stops where it is — no new arrivals, no drain — and its
 * result says `interrupted` at that time, with the figures recorded so far.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';

const sc = scenarioSchema.parse({
  name: 'long',
  durationMs: 600_000,
  drainMs: 60_000,
  endpoint: { workersMax: 20, jobDurationMs: 200 },
  traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 50 }, client: { behaviour: 'run-poll', poll: { baseMs: 500, factor: 1, jitter: 0 } } }],
});

describe('interrupting a run', () => {
  test('aborted mid-run (in-process, virtual time): stops there, interrupted.atMs is that time', async () => {
    const ctl = new AbortController();
    const phases = new Set<string>();
    const r = await runScenario(sc, {
      signal: ctl.signal,
      onProgress: (p) => {
        phases.add(p.phase);
        if (p.nowMs >= 60_000) ctl.abort();
      },
    });
    expect(r.interrupted).toBeDefined();
    expect(r.interrupted!.atMs).toBe(r.elapsedMs);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(60_000);
    expect(r.elapsedMs).toBeLessThan(300_000);
    expect(phases).toEqual(new Set(['traffic']));
    // About 50 arrivals a second up to then, none after.
    expect(r.flows.a!.sessions).toBeLessThan((50 * r.elapsedMs) / 1000 + 2);
    expect(r.flows.a!.sessions).toBeGreaterThan((50 * r.elapsedMs) / 1000 - 2);
  });

  test('aborted before it starts: nothing runs; a run not aborted is not marked', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const r = await runScenario({ ...sc, durationMs: 10_000 }, { signal: ctl.signal });
    expect(r.interrupted).toEqual({ atMs: 0 });
    const whole = await runScenario({ ...sc, durationMs: 10_000 }, { signal: new AbortController().signal });
    expect(whole.interrupted).toBeUndefined();
    expect(whole.elapsedMs).toBeGreaterThanOrEqual(10_000);
  });
});
