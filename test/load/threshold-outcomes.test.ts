/**
 * Threshold selectors match what a run records: `jobs{status=…}` takes every job outcome of
 * report.json (an OpenAI request whose server wait ended first is `timeout`), a plain `jobs`
 * counts every accepted job, and `limited` (429 answers only) refuses a status selector when the
 * scenario loads.
 */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { scenarioSchema } from '../../src/load/scenario/schema.js';

const base = {
  name: 'outcomes',
  seed: 4,
  durationMs: 20_000,
  drainMs: 30_000,
  // One worker, 2 s jobs, one a second, a 3 s execution timeout: OpenAI requests queue behind each other and
  // the server stops holding them (executionTimeout + 1 ms after submission) while their job waits.
  endpoint: { id: 'ep', workersMin: 1, workersMax: 1, jobDurationMs: 2000, executionTimeoutMs: 3000 },
  traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat' } }],
};
const problems = (thresholds: string[]) => {
  const l = parseScenario({ ...base, thresholds }, 's.yaml');
  return l.ok ? [] : l.issues.map((i) => `${i.path}: ${i.message}`);
};

describe('threshold selectors and job outcomes', () => {
  test('jobs{status=…} takes every job outcome, timeout and error included', () => {
    expect(problems(['jobs{status=timeout} == 0', 'jobs{flow=chat,status=error} == 0', 'jobs{status=gave-up} == 0', 'jobs{status=unfinished} == 0'])).toEqual(
      [],
    );
    expect(problems(['jobs{status=timeuot} == 0'])).toEqual(['thresholds.0: unknown status "timeuot" in "jobs{status=timeuot} == 0"; did you mean "timeout"?']);
  });

  test('limited{status=…} is refused, naming the threshold and the selector limited takes', () => {
    expect(problems(['limited{status=503} == 0'])).toEqual([
      'thresholds.0: metric "limited" takes only {operation=…}, not {status=503} (in "limited{status=503} == 0"): limited counts 429 answers; requests{status=…} counts the answers of any status',
    ]);
    expect(problems(['limited{run} == 0', 'requests{status=503} == 0'])).toEqual([]);
  });

  test('OpenAI requests whose server wait ended first count as jobs{status=timeout} and in a plain jobs', async () => {
    const sc = scenarioSchema.parse({
      ...base,
      thresholds: ['jobs{status=timeout} > 0', 'jobs{flow=chat,status=timeout} > 0', 'jobs == 20', 'jobs_accepted == 20'],
    });
    const r = await runScenario(sc);
    expect(r.jobs.outcomes?.timeout).toBeGreaterThan(0);
    expect(r.thresholds.map((t) => [t.expr, t.value, t.ok])).toEqual([
      ['jobs{status=timeout} > 0', r.jobs.outcomes!.timeout, true],
      ['jobs{flow=chat,status=timeout} > 0', r.jobs.outcomes!.timeout, true],
      ['jobs == 20', 20, true],
      ['jobs_accepted == 20', 20, true],
    ]);
  });
});
