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
  name: name.meta({ description: 'Name of the flow in reports and metrics; unique in the scenario. Letters, digits, "_", "." and "-".', examples: ['submit-poll', 'health-check'] }),
  arrival: arrivalSchema.meta({
    description: 'When the flow\'s sessions start, keyed by `process`: constant, poisson, ramp, stages, spike, diurnal or replay.',
    examples: [{ process: 'poisson', ratePerSec: 5 }, { process: 'ramp', fromPerSec: 1, toPerSec: 20, overMs: 300_000 }],
  }),
  client: behaviourSchema.meta({
    description: 'What each session does, keyed by `behaviour`: run-poll, run-webhook, run-stream, runsync, health, purge-queue or openai-chat.',
    examples: [{ behaviour: 'run-poll' }, { behaviour: 'runsync', waitMs: 30_000 }],
  }),
});

const thresholdSchema = z.string().superRefine((s, ctx) => {
  const t = parseThreshold(s);
  if (typeof t === 'string') ctx.addIssue({ code: 'custom', message: t });
});

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'The JSON Schema this file follows (for editors); ignored by loadlab.', examples: ['../schema/scenario.schema.json'] }),
    name: name.meta({ description: 'Name of the scenario in reports and metrics. Letters, digits, "_", "." and "-", at most 100.', examples: ['steady-mix', 'cold-start-burst'] }),
    description: z.string().optional().meta({ description: 'Free text for the reader: what the scenario tests.', examples: ['Steady Poisson traffic of /run + polling against 3 workers.'] }),
    seed: z.union([z.number().int(), z.string().min(1)]).default(1)
      .meta({ description: 'Seed of every random stream (simulator and clients): the same seed, the same run. `--seed` overrides it. Default: 1.', examples: [1, 42, 'nightly'] }),
    durationMs: ms.positive().max(30 * 86_400_000)
      .meta({ description: 'Length of the traffic phase in ms: arrivals happen in [0, durationMs). Max 30 days.', examples: [60_000, 600_000, 86_400_000] }),
    drainMs: ms.max(30 * 86_400_000).default(600_000).meta({
      description: 'After the traffic phase, how long (ms) open sessions may still finish before the run ends. Max 30 days. Default: 600000 (10 min).',
      examples: [600_000, 60_000],
    }),
    endpoint: endpointSchema.extend({ id: endpointSchema.shape.id.default('ep') }).default(() => endpointSchema.parse({ id: 'ep' })).meta({
      description: 'The endpoint under test: in-process, the simulated one (workers, scaler, limits, retention, webhooks, faults, workload); against a real deployment (--target), its id names the endpoint. Default: every field\'s default, id ep.',
      examples: [{ id: 'ep', workersMax: 5, coldStartMs: { dist: 'lognormal', medianMs: 8000, p95Ms: 25_000 }, jobDurationMs: 2000 }],
    }),
    openModel: z
      .strictObject({
        maxInFlight: z.number().int().positive().optional()
          .meta({ description: 'Most requests in flight at once, over all flows; further sends wait. Unlimited when unset.', examples: [100, 1000] }),
        maxWaitMs: ms.default(60_000).meta({ description: 'A request held by maxInFlight longer than this (ms) is dropped. Default: 60000.', examples: [60_000, 5000] }),
        lateAfterMs: ms.default(10).meta({ description: 'A send this much later (ms) than its intended time counts as a late arrival. Default: 10.', examples: [10, 100] }),
      })
      .default({ maxWaitMs: 60_000, lateAfterMs: 10 })
      .meta({
        description: 'The open model: each arrival is sent at its intended time, whatever answers are pending, unless maxInFlight holds it. Default: {maxWaitMs: 60000, lateAfterMs: 10}.',
        examples: [{ maxInFlight: 500, maxWaitMs: 10_000 }],
      }),
    webhookReceiver: z
      .strictObject({
        failFirstAttempts: z.number().int().min(0).default(0)
          .meta({ description: 'The receiver fails the first this many delivery attempts of every job. Default: 0.', examples: [0, 1, 2] }),
        failProbability: z.number().min(0).max(1).default(0)
          .meta({ description: 'Probability in [0, 1] that the receiver fails any other delivery attempt. Default: 0.', examples: [0, 0.1] }),
        failStatus: z.number().int().min(300).max(599).default(500)
          .meta({ description: 'HTTP status (300–599) of a failed delivery. Default: 500.', examples: [500, 503] }),
      })
      .default({ failFirstAttempts: 0, failProbability: 0, failStatus: 500 })
      .meta({
        description: 'The built-in webhook receiver of run-webhook flows, and how it fails deliveries (to exercise retries). Default: never fails.',
        examples: [{ failFirstAttempts: 1 }, { failProbability: 0.1, failStatus: 503 }],
      }),
    traffic: z.array(flowSchema).min(1, 'needs at least one flow').meta({
      description: 'The flows of the run, at least one: each has a name, an arrival process and a client behaviour.',
      examples: [[{ name: 'submit-poll', arrival: { process: 'poisson', ratePerSec: 5 }, client: { behaviour: 'run-poll' } }]],
    }),
    /** Checked at the end; any failure makes `loadlab run` exit 99. */
    thresholds: z.array(thresholdSchema).default([]).meta({
      description: 'Pass/fail checks on the run\'s results, as `metric{operation} <op> number` (e.g. p95_ms, error_rate, jobs_failed); any failure makes `loadlab run` exit 99. Default: [].',
      examples: [['p95_ms{run} < 500', 'error_rate < 0.01', 'jobs_failed == 0']],
    }),
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
