/**
 * The package's public entry, imported by its name as a user would: Node resolves `loadlab` from
 * inside the package through package.json `exports` (self-reference) to dist/src/index.js, which
 * test/global-setup.ts builds. Types come from the source entry (the specifier is a variable, so
 * `tsc --noEmit` does not need a built dist).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Entry = typeof import('../../src/index.js');
const PACKAGE = 'loadlab';
const lib = (await import(PACKAGE)) as Entry;

describe('import from "loadlab"', () => {
  it('exports exactly the public names', () => {
    expect(Object.keys(lib).sort()).toEqual([
      'Api',
      'DEFAULT_LIMITS',
      'LOADLAB_ERROR_CODES',
      'LoadlabError',
      'OPERATIONS',
      'RUN_RESULT_VERSION',
      'Simulator',
      'endpointConfig',
      'evaluateThresholds',
      'loadScenarioFile',
      'parseRunResult',
      'parseScenario',
      'parseSimConfig',
      'renderHtml',
      'renderJson',
      'renderJunit',
      'renderMarkdown',
      'renderOpenMetrics',
      'runScenario',
      'startServer',
    ]);
  });

  it('throws its errors as LoadlabError with a documented code', () => {
    const e = (() => {
      try {
        lib.parseRunResult('{"version": 9}');
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(lib.LoadlabError);
    expect(e).toMatchObject({ code: 'LOADLAB_ERR_BAD_REPORT', name: 'ReportFormatError', message: expect.stringContaining('unsupported RunResult version 9') });
    expect(Object.keys(lib.LOADLAB_ERROR_CODES)).toContain('LOADLAB_ERR_BAD_REPORT');
  });

  it('is the built dist/, by way of package.json exports', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.exports['.'].default).toBe('./dist/src/index.js');
    expect(pkg.files).toContain('dist/src');
    expect(import.meta.resolve(PACKAGE)).toBe(new URL('../../dist/src/index.js', import.meta.url).href);
  });

  it('answers a /run on a Simulator and Api built from parseSimConfig', async () => {
    const parsed = lib.parseSimConfig({ seed: 1, apiKeys: ['k'], endpoints: [{ id: 'ep' }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const api = new lib.Api(new lib.Simulator(parsed.config));
    const res = await api.call({ method: 'POST', path: '/v2/ep/run', authorization: 'Bearer k', body: { input: { x: 1 } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'IN_QUEUE', id: expect.any(String) });
  });

  it('runs a scenario and renders its result', async () => {
    const l = lib.parseScenario(
      {
        name: 'tiny',
        seed: 3,
        durationMs: 10_000,
        endpoint: { id: 'ep' },
        traffic: [{ name: 'runs', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'run-poll' } }],
        thresholds: ['jobs_completed > 0'],
      },
      'tiny.yaml',
    );
    if (!l.ok) throw new Error(JSON.stringify(l.issues));
    const r = await lib.runScenario(l.scenario);
    expect(r.version).toBe(lib.RUN_RESULT_VERSION);
    expect(r.jobs.accepted).toBe(10);
    expect(r.thresholds).toEqual([expect.objectContaining({ expr: 'jobs_completed > 0', ok: true })]);
    const md = lib.renderMarkdown(r);
    expect(md).toContain('tiny');
    expect(md).toContain('jobs_completed > 0');
    expect(lib.parseRunResult(lib.renderJson(r))).toEqual(JSON.parse(lib.renderJson(r)));
  });
});
