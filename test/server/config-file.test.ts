/** `--config` files (CONTRACT §4) and how serve merges file < env < flags. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveServe, type ServeArgs } from '../../src/cli/commands/serve.js';
import { loadConfigFile } from '../../src/cli/config-file.js';
import type { CliError } from '../../src/cli/exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-cfg-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const errorOf = (f: () => unknown): CliError => {
  try {
    f();
  } catch (e) {
    return e as CliError;
  }
  throw new Error('no error');
};

describe('config file', () => {
  it('reads the JSON example of CONTRACT §4', () => {
    const p = file(
      'c.json',
      JSON.stringify({
        seed: 7,
        apiKeys: ['k'],
        endpoints: [
          {
            id: 'ep',
            workersMin: 0,
            workersMax: 3,
            idleTimeoutMs: 5000,
            coldStartMs: 0,
            executionTimeoutMs: 600000,
            scaler: { type: 'QUEUE_DELAY', value: 4 },
            jobDurationMs: 1000,
          },
        ],
      }),
    );
    const c = loadConfigFile(p);
    expect(c.kind).toBe('config');
    expect(c.config.seed).toBe(7);
    expect(c.config.endpoints[0]).toMatchObject({ id: 'ep', workersMax: 3, jobDurationMs: 1000 });
  });

  it('reads YAML with distributions', () => {
    const c = loadConfigFile(file('c.yaml', 'endpoints:\n  - id: a\n    jobDurationMs: {dist: lognormal, medianMs: 2000, p95Ms: 6000}\n'));
    expect(c.config.endpoints[0]!.jobDurationMs).toEqual({ dist: 'lognormal', medianMs: 2000, p95Ms: 6000 });
  });

  it('names file, field path and reason for every problem, with exit code 2', () => {
    const p = file('bad.yaml', 'seed: 1\ncolour: red\nendpoints:\n  - id: ep\n    workersMax: -2\n');
    const e = errorOf(() => loadConfigFile(p));
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain(`${p}: colour: Unrecognized key: "colour"`);
    expect(e.message).toContain(`${p}: endpoints.0.workersMax:`);
    expect(errorOf(() => loadConfigFile(join(dir, 'missing.yaml'))).message).toBe(`${join(dir, 'missing.yaml')}: cannot read: ENOENT`);
    expect(errorOf(() => loadConfigFile(file('x.yaml', 'a: [1,')))).toMatchObject({ exitCode: 2 });
    expect(errorOf(() => loadConfigFile(file('l.json', '[1]'))).message).toContain('(top level): must be a mapping');
  });

  it("serves a scenario file's endpoint section with its seed; paths name the section", () => {
    const c = loadConfigFile(file('s.yaml', 'name: demo\nseed: 42\nendpoint:\n  workersMax: 5\ntraffic:\n  rate: 3\n'));
    expect(c.kind).toBe('scenario');
    expect(c.config.seed).toBe(42);
    expect(c.config.endpoints.map((e) => [e.id, e.workersMax])).toEqual([['ep', 5]]);
    const e = errorOf(() => loadConfigFile(file('s2.yaml', 'endpoint:\n  workersMax: x\n  extra: 1\n')));
    expect(e.message).toContain(': endpoint.workersMax:');
    expect(e.message).toContain(': endpoint.extra: Unrecognized key');
  });
});

describe('serve settings: defaults < file < env < flags', () => {
  const args = (a: Partial<ServeArgs> = {}): ServeArgs => ({ host: '127.0.0.1', port: 0, clock: 'real', speed: 1, ...a });

  it('keys: flags, else LOADLAB_API_KEY, else the file; none gives a warning', () => {
    const p = file('k.yaml', 'apiKeys: [filekey]\n');
    expect(resolveServe(args({ config: p, 'api-key': ['a', 'b'] }), { LOADLAB_API_KEY: 'e' }).apiKeys).toEqual(['a', 'b']);
    expect(resolveServe(args({ config: p }), { LOADLAB_API_KEY: 'e' }).apiKeys).toEqual(['e']);
    expect(resolveServe(args({ config: p }), {}).apiKeys).toEqual(['filekey']);
    const none = resolveServe(args(), {});
    expect(none.apiKeys).toEqual([]);
    expect(none.warnings[0]).toContain('any non-empty key is accepted');
  });

  it('--seed over the file; --limits off or a scale factor', () => {
    const p = file('s.json', '{"seed": 9, "endpoints": [{"id": "a"}, {"id": "b"}]}');
    expect(resolveServe(args({ config: p }), {}).config.seed).toBe(9);
    expect(resolveServe(args({ config: p, seed: 3 }), {}).config.seed).toBe(3);
    expect(resolveServe(args({ config: p, limits: 'off' }), {}).config.endpoints.map((e) => e.limits.enabled)).toEqual([false, false]);
    expect(resolveServe(args({ limits: '10' }), {}).config.endpoints[0]!.limits.scale).toBe(10);
    expect(errorOf(() => resolveServe(args({ limits: 'lots' }), {})).exitCode).toBe(2);
    expect(errorOf(() => resolveServe(args({ port: 70000 }), {})).exitCode).toBe(2);
    expect(errorOf(() => resolveServe(args({ speed: 0 }), {})).exitCode).toBe(2);
  });
});
