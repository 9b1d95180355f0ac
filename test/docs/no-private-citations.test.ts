/**
 * Comments, schema tooltips and example scenarios say what they mean or point to the user docs:
 * none cites a document a user of loadlab does not have ("spec §4", "FACTS", "CONTRACT §2",
 * "DESIGN"). Folder names such as `src/contract/` are not citations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CITATION = /spec §|\bFACTS\b|\bCONTRACT\b|\bDESIGN\b/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

describe('no citation of documents users do not have', () => {
  for (const dir of ['src', 'schema', 'scenarios']) {
    it(`${dir}/ cites none`, () => {
      const found: string[] = [];
      for (const file of filesUnder(dir)) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (CITATION.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
          });
      }
      expect(found, 'say the thing itself, or point to README or docs/*.md').toEqual([]);
    });
  }

  it('the pattern catches each form of citation', () => {
    for (const s of ['(spec §8.2)', '(FACTS "Webhooks")', '(CONTRACT §5)', 'DESIGN style 2']) expect(CITATION.test(s), s).toBe(true);
    for (const s of ["import { OPERATIONS } from '../contract/operations.js';", 'designed for', 'the contract']) expect(CITATION.test(s), s).toBe(false);
  });
});
