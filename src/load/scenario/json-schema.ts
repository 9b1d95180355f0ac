/**
 * The JSON Schema of scenario files, generated from the zod schema (the single source of truth)
 * so editors complete and check scenarios. `schema/scenario.schema.json` is this, committed; a
 * test fails when it is out of date (regenerate: `UPDATE_SCHEMA=1 npx vitest run test/load/json-schema.test.ts`).
 */
import { z } from 'zod';
import { scenarioSchema } from './schema.js';

export function scenarioJsonSchema(): string {
  const s = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return `${JSON.stringify({ ...s, title: 'loadlab scenario', $id: 'https://loadlab.dev/schema/scenario.schema.json' }, null, 2)}\n`;
}
