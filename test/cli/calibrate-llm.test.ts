/**
 * A batching LLM endpoint calibrated over HTTP, end to end: `loadlab serve` in real time stands in
 * for it (known engine figures, 3 jobs per worker), `loadlab run --target` streams chat answers at
 * it with /health read every 100 ms (test/fixtures/calibrate-llm-known.yaml, about 15 s), and `loadlab
 * calibrate` finds the figures again from the chunks' arrival times as the HTTP client stamped
 * them. The in-process tests (test/calibrate/stream-fit.test.ts) hold the fit to 10 %; here wall
 * time's jitter on a loaded machine gets a looser bound.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadlab, probeRun } from './probe-run.js';

const KNOWN = 'test/fixtures/calibrate-llm-known.yaml';
const { runDir } = probeRun(KNOWN, 'loadlab-calibrate-llm-', 'run');

describe('streamed run → calibrate', () => {
  it('finds the engine and workerConcurrency, and writes them into calibrated.yaml', () => {
    const out = loadlab(['calibrate', runDir]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain('workerConcurrency: 3');
    expect(out.stdout).toMatch(/llm\.engine: +decodeMs [\d.]+ ms/);
    const c = JSON.parse(readFileSync(join(runDir, 'calibration.json'), 'utf8'));
    const near = (got: number, want: number, tol: number) => expect(Math.abs(got / want - 1), `${got} vs ${want}`).toBeLessThanOrEqual(tol);
    expect(c.workerConcurrency).toMatchObject({ value: 3, reached: true });
    // The first streams ended before /health's first answer: theirs is the run's own count.
    expect(['health', 'both']).toContain(c.llm.batchFrom);
    expect(c.llm.engine.ttft.alone).toBe(true);
    near(c.llm.engine.decodeMs.value, 20, 0.15);
    near(c.llm.engine.perSequenceMs.value, 4, 0.25);
    near(c.llm.engine.prefillMsPerToken.value, 0.1, 0.5);
    // The fixed part of the TTFT as the client sees it: the engine's 30 ms, and the way there and back.
    expect(c.llm.engine.overheadMs.value).toBeGreaterThan(25);
    expect(c.llm.engine.overheadMs.value).toBeLessThan(60);
    near(c.llm.outputTokens.p50, 15, 0.15);
    const yaml = parse(readFileSync(join(runDir, 'calibrated.yaml'), 'utf8'));
    expect(yaml.endpoint.workerConcurrency).toBe(3);
    expect(Object.keys(yaml.endpoint.llm.engine)).toEqual(['decodeMs', 'perSequenceMs', 'prefillMsPerToken', 'overheadMs']);
    expect(readFileSync(join(runDir, 'calibration.md'), 'utf8')).toContain('## llm.engine: inter-token latency against sequences per worker');
  });
});
