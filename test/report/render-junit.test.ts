/** --junit: one JUnit test case per threshold, failures with the measured value, XML-escaped. */
import { describe, expect, test } from 'vitest';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { renderJunit } from '../../src/report/render-junit.js';

async function result(thresholds: string[]) {
  const l = parseScenario(
    {
      name: 'junit-check',
      durationMs: 10_000,
      endpoint: { workersMax: 2, jobDurationMs: 500 },
      traffic: [
        { name: 'f', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll', poll: { baseMs: 1000, factor: 1, jitter: 0 } } },
      ],
      thresholds,
    },
    'inline',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  return runScenario(l.scenario);
}

describe('renderJunit', () => {
  test('a test case per threshold; the failed one carries the measured value; < and & are escaped', async () => {
    const r = await result(['jobs_completed == 10', 'jobs_completed > 10', 'p99_ms{status} < 1', 'webhook_failures == 0']);
    const xml = renderJunit(r);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="loadlab" tests="5" failures="1"')).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toContain(
      '<testcase classname="loadlab.junit-check" name="run is valid" time="0">\n      <system-out>the target answered; 0 of 10 arrivals late or dropped',
    );
    expect(xml).toContain('<testcase classname="loadlab.junit-check" name="jobs_completed == 10" time="0">\n      <system-out>measured 10</system-out>');
    expect(xml).toContain('name="jobs_completed &gt; 10"');
    expect(xml).toContain('<failure message="jobs_completed &gt; 10: got 10" type="threshold">');
    expect(xml).toContain('name="p99_ms{status} &lt; 1"');
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).not.toMatch(/<[^/?a-z]/);
  });
  test('no data fails with "no data"; no thresholds leaves the validity case alone', async () => {
    const xml = renderJunit(await result(['p99_ms{runsync} < 100']));
    expect(xml).toContain('<failure message="p99_ms{runsync} &lt; 100: no data"');
    expect(renderJunit(await result([]))).toContain('tests="1" failures="0"');
  });
});
