/**
 * The scenario file (YAML or JSON): the single source of truth for what a run does. Strict
 * everywhere (unknown keys are errors); every default lives here. The endpoint section is the
 * simulator's own endpoint schema (CONTRACT §4), so a scenario and a `serve` config agree.
 */
import { z } from 'zod';
import { endpointSchema } from '../../contract/endpoint-config.js';
import { parseThreshold } from '../../report/thresholds.js';
import { arrivalSchema } from '../arrivals/registry.js';
import { behaviourSchema } from '../behaviours/registry.js';

const ms = z.number().int().nonnegative();
const name = z.string().min(1).max(100).regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only');

const flowSchema = z.strictObject({
  name,
  arrival: arrivalSchema,
  client: behaviourSchema,
});

const thresholdSchema = z.string().superRefine((s, ctx) => {
  const t = parseThreshold(s);
  if (typeof t === 'string') ctx.addIssue({ code: 'custom', message: t });
});

export const scenarioSchema = z
  .strictObject({
    /** Editors: the JSON Schema this file follows. */
    $schema: z.string().optional(),
    name,
    description: z.string().optional(),
    /** Seed of every random stream (simulator and clients); `--seed` overrides it. */
    seed: z.union([z.number().int(), z.string().min(1)]).default(1),
    /** Length of the traffic phase in ms: arrivals happen in [0, durationMs). Max 30 days. */
    durationMs: ms.positive().max(30 * 86_400_000),
    /** After the traffic phase, how long (ms) open sessions may still finish before the run ends. Max 30 days. */
    drainMs: ms.max(30 * 86_400_000).default(600_000),
    endpoint: endpointSchema.extend({ id: endpointSchema.shape.id.default('ep') }).default(() => endpointSchema.parse({ id: 'ep' })),
    /** The open model: arrivals are sent at their intended time unless this cap holds them. */
    openModel: z
      .strictObject({
        /** Most requests in flight at once (all flows); unlimited when unset. */
        maxInFlight: z.number().int().positive().optional(),
        /** A request held by the cap longer than this (ms) is dropped. */
        maxWaitMs: ms.default(60_000),
        /** A send this much later (ms) than intended counts as a late arrival. */
        lateAfterMs: ms.default(10),
      })
      .default({ maxWaitMs: 60_000, lateAfterMs: 10 }),
    /** The built-in webhook receiver (in-process target). */
    webhookReceiver: z
      .strictObject({
        failFirstAttempts: z.number().int().min(0).default(0),
        failProbability: z.number().min(0).max(1).default(0),
        failStatus: z.number().int().min(300).max(599).default(500),
      })
      .default({ failFirstAttempts: 0, failProbability: 0, failStatus: 500 }),
    traffic: z.array(flowSchema).min(1, 'needs at least one flow'),
    /** Checked at the end; any failure makes `loadlab run` exit 99. */
    thresholds: z.array(thresholdSchema).default([]),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.traffic.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: ['traffic', i, 'name'], message: `duplicate flow name "${f.name}"` });
      seen.add(f.name);
    });
    if (s.endpoint.workersMin > s.endpoint.workersMax) ctx.addIssue({ code: 'custom', path: ['endpoint', 'workersMin'], message: 'must be <= workersMax' });
  });

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type FlowSpec = Scenario['traffic'][number];
