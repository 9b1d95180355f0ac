/**
 * Every metric name lives in src/contract/metric-names.ts: no other file under src/ or bench/
 * spells a `loadlab_` metric name as a string, template or regular-expression literal (comments
 * may mention names). Users import the constants instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const HOME = 'src/contract/metric-names.ts';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.[cm]?[jt]s$/.test(e.name) ? [p] : [];
  });
}

/** A literal that starts with `loadlab_`: '…', "…", `…` (to its end or a `${`), or /…/. */
const LITERAL = /(['"`])loadlab_[a-z0-9_]*(?:\1|\$\{)|\/loadlab_[a-z0-9_]+/;

/** Strips // and /* *\/ comments; crude but enough for this tree (no `//` inside the literals it cares about). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');

describe('metric names', () => {
  it(`are spelled only in ${HOME}`, () => {
    const offenders = ['src', 'bench']
      .flatMap((d) => files(join(ROOT, d)))
      .map((p) => relative(ROOT, p).split('\\').join('/'))
      .filter((p) => p !== HOME)
      .flatMap((p) =>
        code(readFileSync(join(ROOT, p), 'utf8'))
          .split('\n')
          .filter((line) => LITERAL.test(line))
          .map((line) => `${p}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the pattern catches each literal form', () => {
    for (const s of [`'loadlab_x_total'`, `"loadlab_y"`, '`loadlab_z`', '`loadlab_${a}_total`', '/loadlab_jobs\\{/']) expect(LITERAL.test(s), s).toBe(true);
    expect(LITERAL.test('see `loadlab_client_*` names')).toBe(false);
  });
});
