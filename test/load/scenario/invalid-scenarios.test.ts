/** Invalid scenarios: every problem at once, each with file, field path and reason. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatIssue, loadScenarioFile } from '../../../src/load/scenario/loader.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-scn-'));
const ok = { name: 'x', durationMs: 1000, traffic: [{ name: 'a', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'health' } }] };

function issues(body: unknown, ext = 'json') {
  const f = join(dir, `s${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body));
  const l = loadScenarioFile(f);
  if (l.ok) throw new Error('expected the scenario to be invalid');
  for (const i of l.issues) expect(formatIssue(i).startsWith(`${f}: `)).toBe(true);
  return l.issues.map((i) => ({ path: i.path, code: i.code, message: i.message }));
}

describe('invalid scenarios', () => {
  test('a valid one loads, with defaults filled in', () => {
    const f = join(dir, 'ok.json');
    writeFileSync(f, JSON.stringify(ok));
    const l = loadScenarioFile(f);
    expect(l.ok && l.scenario.endpoint.id).toBe('ep');
  });
  test('unknown key, named by its path', () => {
    expect(issues({ ...ok, trafic: [] })).toEqual([expect.objectContaining({ path: 'trafic', code: 'CFG_ERR_SCENARIO_INVALID' })]);
    expect(issues({ ...ok, endpoint: { workersMaxx: 3 } })[0]!.path).toBe('endpoint.workersMaxx');
  });
  test('wrong type', () => {
    const i = issues({ ...ok, durationMs: '10s' });
    expect(i).toEqual([expect.objectContaining({ path: 'durationMs', message: expect.stringMatching(/number/) })]);
  });
  test('negative rate', () => {
    const i = issues({ ...ok, traffic: [{ ...ok.traffic[0], arrival: { process: 'poisson', ratePerSec: -5 } }] });
    expect(i).toEqual([expect.objectContaining({ path: 'traffic.0.arrival.ratePerSec', message: expect.stringMatching(/>0|greater/i) })]);
  });
  test('empty traffic', () => {
    expect(issues({ ...ok, traffic: [] })).toEqual([expect.objectContaining({ path: 'traffic', message: 'needs at least one flow' })]);
  });
  test('all problems at once', () => {
    const i = issues({ name: 'bad name!', durationMs: -1, traffic: [], thresholds: ['p99 < banana'] });
    expect([...new Set(i.map((x) => x.path))].sort()).toEqual(['durationMs', 'name', 'thresholds.0', 'traffic']);
  });
  test('unknown arrival process and behaviour', () => {
    const i = issues({ ...ok, traffic: [{ name: 'a', arrival: { process: 'bursty' }, client: { behaviour: 'telepathy' } }] });
    expect(i.map((x) => x.path).sort()).toEqual(['traffic.0.arrival.process', 'traffic.0.client.behaviour']);
  });
  test('YAML syntax error names the line; a missing trace file names its field', () => {
    expect(issues('name: [unclosed\n', 'yaml')[0]).toMatchObject({ code: 'CFG_ERR_SCENARIO_SYNTAX', message: expect.stringMatching(/line/) });
    const i = issues({ ...ok, traffic: [{ ...ok.traffic[0], arrival: { process: 'replay', file: 'nope.csv' } }] });
    expect(i).toEqual([expect.objectContaining({ path: 'traffic.0.arrival.file', code: 'CFG_ERR_TRACE_FILE' })]);
  });
  test('closed arrivals: users a whole number from 1 to 100 000, think and ramp-up times as durations', () => {
    const flow = (name: string, arrival: unknown) => ({ name, arrival: { process: 'closed', ...(arrival as object) }, client: { behaviour: 'health' } });
    const i = issues({
      ...ok,
      traffic: [
        flow('zero', { users: 0 }),
        flow('half', { users: 2.5 }),
        flow('many', { users: 100_001 }),
        flow('none', {}),
        flow('typo', { user: 3 }),
        flow('think', { users: 2, thinkTimeMs: -5 }),
        flow('tail', { users: 2, thinkTimeMs: { dist: 'lognormal', medianMs: 500, p95Ms: 100 } }),
        flow('ramp', { users: 2, rampUpMs: 1.5 }),
      ],
    });
    expect(i.map((x) => x.path)).toEqual([
      'traffic.0.arrival.users',
      'traffic.1.arrival.users',
      'traffic.2.arrival.users',
      'traffic.3.arrival.users',
      'traffic.4.arrival.users',
      'traffic.4.arrival.user',
      'traffic.5.arrival.thinkTimeMs',
      'traffic.6.arrival.thinkTimeMs.p95Ms',
      'traffic.7.arrival.rampUpMs',
    ]);
    expect(new Set(i.map((x) => x.code))).toEqual(new Set(['CFG_ERR_SCENARIO_INVALID']));
    expect(i[0]!.message).toMatch(/>=1/);
    expect(i[2]!.message).toMatch(/<=100000/);
    expect(i[5]!.message).toBe('unknown key "user"; did you mean "users"?');
    expect(i[7]!.message).toBe('p95Ms must be >= medianMs');
  });
  test('a closed flow with only users loads with its defaults: no think time, every user at 0 ms', () => {
    const f = join(dir, 'closed.json');
    writeFileSync(f, JSON.stringify({ ...ok, traffic: [{ name: 'a', arrival: { process: 'closed', users: 3 }, client: { behaviour: 'health' } }] }));
    const l = loadScenarioFile(f);
    expect(l.ok && l.scenario.traffic[0]!.arrival).toEqual({ process: 'closed', users: 3, thinkTimeMs: 0, rampUpMs: 0 });
  });
});
