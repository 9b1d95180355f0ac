/**
 * The JSON Schema of scenario files, generated from the zod schema (the single source of truth)
 * so editors complete and check scenarios. `schema/scenario.schema.json` is this, committed; a
 * test fails when it is out of date (regenerate: `node bin/loadlab.js run --print-schema`... see README).
 */
import { z } from 'zod';
import { scenarioSchema } from './schema.js';

export function scenarioJsonSchema(): string {
  const s = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return `${JSON.stringify({ ...s, title: 'loadlab scenario', $id: 'https://loadlab.dev/schema/scenario.schema.json' }, null, 2)}\n`;
}
