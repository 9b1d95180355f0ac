/**
 * docs/errors.md documents every error code loadlab answers or ends with, taken from the tables
 * in the source: a new code that is not documented fails here, as does a documented status or
 * exit code that is not the one the code has.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../src/api/errors.js';
import { OPENAI_CODES, OPENAI_JOB_CODES } from '../../src/api/openai-errors.js';
import { EXIT, EXIT_OF_ERROR } from '../../src/cli/exit-codes.js';
import { LOADLAB_ERROR_CODES } from '../../src/contract/loadlab-error.js';
import { SCENARIO_ERRORS } from '../../src/load/scenario/loader.js';
import { PLAN_MERGE_ERRORS } from '../../src/plan/merge-plans.js';
import { SERVER_ERRORS } from '../../src/server/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The cells of the table row whose first cell is `key` (in backticks or bare); undefined if none. */
function row(key: string): string[] | undefined {
  const line = doc.split('\n').find((l) => {
    const first = l.split('|')[1]?.trim();
    return first === `\`${key}\`` || first === key;
  });
  return line
    ?.split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

describe('docs/errors.md', () => {
  it('has a row for every API error code with its HTTP status', () => {
    for (const [code, e] of Object.entries(API_ERRORS)) expect(row(code)?.[1], code).toBe(String(e.status));
  });

  it('has a row for every server error code with its HTTP status', () => {
    for (const [code, e] of Object.entries(SERVER_ERRORS)) expect(row(code)?.[1], code).toBe(String(e.status));
  });

  it('names every OpenAI code the route answers, and every job status it answers as a code', () => {
    const codes = new Set([...Object.values(OPENAI_CODES).filter((c) => c !== null), ...OPENAI_JOB_CODES]);
    for (const c of codes) expect(doc, c).toContain(`\`${c}\``);
  });

  it('has a row for every error code the command line ends with, with its exit code', () => {
    for (const code of Object.keys(LOADLAB_ERROR_CODES) as (keyof typeof EXIT_OF_ERROR)[]) {
      expect(row(code)?.[1], code).toBe(String(EXIT_OF_ERROR[code]));
    }
  });

  it('explains every exit code', () => {
    for (const code of Object.values(EXIT)) expect(row(String(code))?.[1]?.length, `exit ${code}`).toBeGreaterThan(10);
  });

  it('has a row for every scenario and plan merge problem code', () => {
    for (const code of [...Object.keys(SCENARIO_ERRORS), ...Object.keys(PLAN_MERGE_ERRORS)]) expect(row(code), code).toBeDefined();
  });

  it('is linked from the README', () => {
    expect(readme).toContain('(docs/errors.md)');
  });
});
