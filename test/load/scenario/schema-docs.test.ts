/**
 * The scenario JSON Schema documents itself: editors show a field's `description` on hover and
 * its `examples` in completion, so every field has a description, and every leaf field (one that
 * holds no object) has examples, unless an `enum` or `const` already lists its values.
 */
import { expect, test } from 'vitest';
import { z } from 'zod';
import { scenarioJsonSchema } from '../../../src/load/scenario/json-schema.js';
import { scenarioSchema } from '../../../src/load/scenario/schema.js';

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const branchesOf = (s: Schema): Schema[] =>
  (['anyOf', 'oneOf', 'allOf'] as const).flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]).filter(isSchema) : []));

/** The schema holds an object somewhere (itself, a branch, its items): not a leaf. */
function holdsObject(s: Schema): boolean {
  if (s.type === 'object' || isSchema(s.properties)) return true;
  if (isSchema(s.items) && holdsObject(s.items)) return true;
  return branchesOf(s).some(holdsObject);
}

/** An enum or const lists the values itself (also when every branch is one). */
function listsValues(s: Schema): boolean {
  if (Array.isArray(s.enum) || 'const' in s) return true;
  const b = branchesOf(s);
  return b.length > 0 && b.every(listsValues);
}

/** A branch's name in a path: its discriminator (`<process=poisson>`) or its index. */
function branchName(b: Schema, i: number): string {
  for (const [k, p] of Object.entries(isSchema(b.properties) ? b.properties : {})) {
    if (isSchema(p) && typeof p.const === 'string') return `<${k}=${p.const}>`;
  }
  return `<${i}>`;
}

function audit(root: Schema): { fields: number; gaps: string[] } {
  const gaps: string[] = [];
  let fields = 0;
  const visit = (s: Schema, path: string): void => {
    if (isSchema(s.properties)) {
      for (const [k, p] of Object.entries(s.properties)) {
        if (!isSchema(p)) continue;
        const at = path ? `${path}.${k}` : k;
        fields++;
        if (typeof p.description !== 'string' || p.description.trim() === '') gaps.push(`${at}: no description`);
        const hasExamples = Array.isArray(p.examples) && p.examples.length > 0;
        if (!holdsObject(p) && !listsValues(p) && !hasExamples) gaps.push(`${at}: no examples`);
        visit(p, at);
      }
    }
    branchesOf(s).forEach((b, i) => visit(b, `${path}${branchName(b, i)}`));
    if (isSchema(s.items)) visit(s.items, `${path}[]`);
    if (isSchema(s.additionalProperties)) visit(s.additionalProperties, `${path}{*}`);
    if (isSchema(s.$defs)) for (const [k, d] of Object.entries(s.$defs)) if (isSchema(d)) visit(d, `$defs.${k}`);
  };
  visit(root, '');
  return { fields, gaps };
}

test('every field of the scenario JSON Schema has a description, and every leaf field examples', () => {
  const s = JSON.parse(scenarioJsonSchema()) as Schema;
  const { fields, gaps } = audit(s);
  expect(gaps, `fields without docs (add .meta({ description, examples }) in the zod schema):\n${gaps.join('\n')}`).toEqual([]);
  // Not vacuous: the walk reached the nested fields, and a known description is in place.
  expect(fields).toBeGreaterThan(150);
  const props = s.properties as Record<string, Schema>;
  expect(props.durationMs!.description).toMatch(/\bms\b/);
  expect(props.durationMs!.examples).toEqual(expect.arrayContaining([expect.any(Number)]));
});

test('the audit finds a field without a description, and one without examples', () => {
  const { gaps } = audit({
    type: 'object',
    properties: {
      a: { type: 'object', properties: { b: { type: 'integer', description: 'B' } } },
      c: { anyOf: [{ type: 'object', properties: { kind: { const: 'x' }, d: { type: 'string', description: 'D', examples: ['d'] } } }] },
    },
  });
  expect(gaps).toEqual(['a: no description', 'a.b: no examples', 'c: no description', 'c<kind=x>.kind: no description']);
});

/** Each field of a zod schema tree (object shapes, through unions, arrays, records and wrappers) with its path. */
function zodFields(root: z.ZodType): { path: string; schema: z.ZodType }[] {
  const out: { path: string; schema: z.ZodType }[] = [];
  const seen = new Set<z.ZodType>();
  const visit = (s: z.ZodType, path: string): void => {
    if (seen.has(s)) return;
    seen.add(s);
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    switch (def.type) {
      case 'object':
        for (const [k, f] of Object.entries((s as z.ZodObject).shape)) {
          out.push({ path: `${path}.${k}`, schema: f as z.ZodType });
          visit(f as z.ZodType, `${path}.${k}`);
        }
        break;
      case 'union':
        (def.options as z.ZodType[]).forEach((o, i) => visit(o, `${path}<${i}>`));
        break;
      case 'array':
        visit(def.element as z.ZodType, `${path}[]`);
        break;
      case 'record':
        visit(def.valueType as z.ZodType, `${path}{*}`);
        break;
      case 'default':
      case 'optional':
      case 'nullable':
      case 'prefault':
      case 'readonly':
      case 'nonoptional':
        visit(def.innerType as z.ZodType, path);
        break;
    }
  };
  visit(root, '');
  return out;
}

/** The examples of a field: on the field's schema, or on a schema it wraps (`.meta()` before `.default()`). */
function examplesOf(s: z.ZodType): unknown[] {
  for (let t: z.ZodType | undefined = s; t; ) {
    const ex = z.globalRegistry.get(t)?.examples;
    if (Array.isArray(ex)) return ex;
    t = (t._zod.def as { innerType?: z.ZodType }).innerType;
  }
  return [];
}

test('every example of a field is valid input for that field', () => {
  const bad: string[] = [];
  let checked = 0;
  for (const { path, schema } of zodFields(scenarioSchema)) {
    for (const ex of examplesOf(schema)) {
      checked++;
      const r = schema.safeParse(ex);
      if (!r.success) bad.push(`${path}: ${JSON.stringify(ex)}: ${r.error.issues.map((i) => i.message).join('; ')}`);
    }
  }
  expect(bad, bad.join('\n')).toEqual([]);
  expect(checked).toBeGreaterThan(150);
});
