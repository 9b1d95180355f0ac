import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { scenarioJsonSchema } from '../../../src/load/scenario/json-schema.js';

const FILE = 'schema/scenario.schema.json';

test('schema/scenario.schema.json is generated from the zod scenario schema and up to date', () => {
  const want = scenarioJsonSchema();
  if (process.env.UPDATE_SCHEMA) writeFileSync(FILE, want);
  expect(readFileSync(FILE, 'utf8'), 'regenerate with UPDATE_SCHEMA=1 npx vitest run test/load/scenario/json-schema.test.ts').toBe(want);
  const s = JSON.parse(want);
  expect(s.required).toEqual(expect.arrayContaining(['name', 'durationMs', 'traffic']));
  expect(s.additionalProperties).toBe(false);
});
