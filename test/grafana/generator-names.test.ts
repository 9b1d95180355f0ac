/**
 * The dashboard generator (grafana/src/) spells no metric name: every `loadlab_`, `process_` or
 * `nodejs_` name comes from src/contract/metric-names.ts, as under src/ and bench/
 * (test/telemetry/metric-names-single-source.test.ts). Comments may mention names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAFANA } from './dashboard-files.js';

/** A string, template or regular-expression literal that starts with a metric prefix. */
const LITERAL = /(['"`])(?:loadlab|process|nodejs)_[a-z0-9_]*(?:\1|\$\{)|\/(?:loadlab|process|nodejs)_[a-z0-9_]+/;
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');

describe('grafana/src', () => {
  it('imports every metric name instead of spelling it', () => {
    const dir = join(GRAFANA, 'src');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(3);
    const offenders = files.flatMap((f) =>
      code(readFileSync(join(dir, f), 'utf8'))
        .split('\n')
        .filter((line) => LITERAL.test(line))
        .map((line) => `${f}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the pattern catches each literal form', () => {
    for (const s of [`'loadlab_x_total'`, `"process_resident_memory_bytes"`, '`nodejs_heap_${x}`', '/loadlab_jobs\\{/']) expect(LITERAL.test(s), s).toBe(true);
    expect(LITERAL.test('sel(CLIENT_METRIC.requests, RUN)')).toBe(false);
  });
});
