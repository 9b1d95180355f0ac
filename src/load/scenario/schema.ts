/**
 * The scenario file (YAML or JSON): the single source of truth for what a run does. Strict
 * everywhere (unknown keys are errors); every default lives here. The endpoint section is the
 * simulator's own endpoint schema (the `serve` config file's), so a scenario and a `serve` config agree.
 */
import { z } from 'zod';
import { checkEndpointKeys, endpointObjectSchema, endpointSchema, QUEUE_DELAY_MIN_S } from '../../contract/endpoint-config.js';
import { checkThreshold, type ThresholdContext } from '../../report/threshold-check.js';
import { parseIntRange } from '../../lib/int-range.js';
import { arrivalSchema } from '../arrivals/registry.js';
import { behaviourRefusal, behaviourSchema, hasTurns, isStreaming } from '../behaviours/registry.js';
import { chatConflicts } from '../behaviours/chat-fields.js';

const ms = z.number().int().nonnegative();
const name = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only');

const flowSchema = z.strictObject({
  name: name.meta({
    description: 'Name of the flow in reports and metrics; unique in the scenario. Letters, digits, "_", "." and "-".',
    examples: ['submit-poll', 'health-check'],
  }),
  arrival: arrivalSchema.meta({
    description:
      "When the flow's sessions start, keyed by `process`: constant, poisson, ramp, stages, spike, diurnal or replay (open: times fixed in advance), or closed (a fixed number of users, each starting its next session when its last one ends).",
    examples: [
      { process: 'poisson', ratePerSec: 5 },
      { process: 'ramp', fromPerSec: 1, toPerSec: 20, overMs: 300_000 },
      { process: 'closed', users: 8, thinkTimeMs: 500 },
    ],
  }),
  client: behaviourSchema.meta({
    description: 'What each session does, keyed by `behaviour`: run-poll, run-webhook, run-stream, runsync, health, purge-queue or openai-chat.',
    examples: [{ behaviour: 'run-poll' }, { behaviour: 'runsync', waitMs: 30_000 }],
  }),
  goodput: z
    .strictObject({
      ttftMs: z
        .number()
        .int()
        .positive()
        .optional()
        .meta({ description: 'Most ms from the intended send to the first content chunk.', examples: [500, 2000] }),
      tpotMs: z
        .number()
        .int()
        .positive()
        .optional()
        .meta({ description: 'Most ms per output token after the first.', examples: [50, 100] }),
    })
    .optional()
    .meta({
      description:
        'Streaming flows only (run-stream, openai-chat with stream): a request is good when its stream did not break and its TTFT and TPOT are at most these (an unset target holds for all); `goodput` is the share of good streamed requests (docs/thresholds.md).',
      examples: [{ ttftMs: 500, tpotMs: 50 }, { ttftMs: 2000 }],
    }),
});

/** Context-free checks here (grammar, metric, selector kinds, operations); flow names at the top. */
const thresholdExpr = z
  .string()
  .meta({
    description: '`metric{selector} <op> number [every Ns]`, e.g. "p99_ms{run} < 2000" (docs/thresholds.md).',
    examples: ['p99_ms{run} < 2000', 'p95_ms{run} < 500 every 60s', 'jobs_failed{flow=batch} == 0'],
  })
  .superRefine((s, ctx) => {
    const t = checkThreshold(s, {});
    if (Array.isArray(t)) for (const message of t) ctx.addIssue({ code: 'custom', message });
  });
const thresholdSchema = z.union([
  thresholdExpr,
  z.strictObject({
    expr: thresholdExpr,
    abortOnFail: z
      .boolean()
      .default(false)
      .meta({
        description: 'Check at the end of every 10 s window during the run; a failure ends the run early, writes the reports and exits 99. Default: false.',
        examples: [true],
      }),
    delayAbortEvalMs: ms
      .default(0)
      .meta({ description: "Start the abort checks this long (ms) into the run (k6's delayAbortEval). Default: 0.", examples: [0, 60_000] }),
  }),
]);

/** The workersMax values `loadlab plan` sweeps at most (plan/workers-range.ts keeps the same bound). */
const PLAN_MAX_POINTS = 1000;
const gridValues = <T extends z.ZodType>(t: T, description: string, examples: unknown[]) => z.array(t).min(1).optional().meta({ description, examples });

/** `loadlab plan`'s defaults for this scenario (docs/plan.md); its flags override each. */
const planSchema = z.strictObject({
  calibratedUpTo: z
    .strictObject({
      concurrency: z
        .number()
        .int()
        .min(1)
        .meta({ description: "The largest concurrency per worker the calibration measured (its sweep's top --max-concurrency).", examples: [32] }),
      kvCache: z.enum(['given', 'fitted', 'not-reached']).meta({
        description:
          "What the calibration knew of the KV cache: given (--kv-cache-tokens), fitted (its sweep reached the cache's limit) or not-reached (the size is unknown beyond `concurrency`).",
      }),
    })
    .optional()
    .meta({
      description:
        'Written by `loadlab calibrate` from benchmark files: how far the fitted engine was measured. `loadlab plan` flags a recommendation beyond it (more requests per worker than measured, or past the KV cache).',
      examples: [{ concurrency: 32, kvCache: 'fitted' }],
    }),
  workersMax: z
    .string()
    .optional()
    .meta({ description: 'The workersMax values to sweep, FROM..TO (`--workers-max`). Default: 1..20.', examples: ['1..20', '4..12'] }),
  seeds: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'Seeds per point; a point meets the SLOs only if every seed does (`--seeds`). Default: 3.', examples: [3, 5] }),
  gpu: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        'Bill workers at this GPU\'s per-second price in the price book (`--gpu`; docs/plan.md "Cost" lists them), in plans and in `loadlab run` reports; an llm.engine without maxNumSeqs or maxNumBatchedTokens gets vLLM\'s defaults on this GPU (1024 and 8192 on H100, H200 and B200-class GPUs, 256 and 2048 on others). Default: no cost.',
      examples: ['A100', '4090-PRO'],
    }),
  priceBook: z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        'Which dated price table `gpu` is read in (`--price-book`; docs/plan.md "Cost"): 2026, RunPod\'s prices since 2026-05-13 (one price for flex and active workers), or 2025, the earlier table (active workers 20–30 % cheaper), to match an old invoice. Default: 2026.',
      examples: ['2026', '2025'],
    }),
  grid: z
    .strictObject({
      type: gridValues(
        endpointObjectSchema.shape.type.unwrap(),
        'Kinds of endpoint (endpoint.type): the same traffic planned on a queue endpoint and on a load-balancing one, side by side (cost, TTFT, failures). A point on the scenario\'s other kind takes that kind\'s defaults where the scenario left them (docs/plan.md "Queue or load-balancing endpoint"); every flow must run on every kind listed.',
        [['queue', 'load-balancer']],
      ),
      workersMin: gridValues(ms, "Active workers (capped at each point's workersMax).", [[0, 1, 2]]),
      idleTimeoutMs: gridValues(ms, 'ms an idle flex worker stays before it stops.', [[5000, 60_000]]),
      coldStartMs: gridValues(ms, "ms from a worker's start to ready.", [[2000, 10_000]]),
      'scaler.type': gridValues(z.enum(['QUEUE_DELAY', 'REQUEST_COUNT']), 'Scaler types.', [['QUEUE_DELAY', 'REQUEST_COUNT']]),
      'scaler.value': gridValues(z.number().nonnegative(), 'Scaler values: seconds of queue delay (QUEUE_DELAY) or jobs per worker (REQUEST_COUNT).', [[1, 4]]),
      flashBoot: gridValues(z.union([z.literal('off'), ms]), 'FlashBoot: off, or the restart time in ms of a worker stopped within its window.', [
        ['off', 500],
      ]),
      workerConcurrency: gridValues(
        endpointSchema.shape.workerConcurrency.unwrap(),
        'Jobs one worker runs at once (whole, 1..1024): with workersMax, the workers × concurrency sweep of a batching LLM endpoint.',
        [[1, 4, 8, 16, 30]],
      ),
      gpus: gridValues(
        endpointObjectSchema.shape.gpus.unwrap(),
        "Lists of GPU types in priority order (endpoint.gpus), up to 3 each: each list's points bill every worker at its type's price and run the engine on it (llm.engine.byGpu); a point keeps the hostCapacity and byGpu entries of its types. On the command line: --grid gpus=H100-PRO,A100,H100-PRO+A100.",
        [[['H100-PRO'], ['A100'], ['H100-PRO', 'A100']]],
      ),
    })
    .optional()
    .meta({
      description:
        'Endpoint knobs to sweep besides workersMax (`--grid`): every combination of their values is a line along workersMax, and the recommendation is the cheapest point meeting every SLO. Default: none.',
      examples: [
        { workersMin: [0, 1], idleTimeoutMs: [5000, 60_000] },
        { workerConcurrency: [1, 8, 30] },
        { gpus: [['H100-PRO'], ['A100'], ['H100-PRO', 'A100']] },
        { type: ['queue', 'load-balancer'] },
      ],
    }),
});

/** A threshold entry in its object form. */
export interface ThresholdSpec {
  expr: string;
  abortOnFail: boolean;
  delayAbortEvalMs: number;
}
export function thresholdSpec(t: string | ThresholdSpec): ThresholdSpec {
  return typeof t === 'string' ? { expr: t, abortOnFail: false, delayAbortEvalMs: 0 } : t;
}

export const scenarioSchema = z
  .strictObject({
    $schema: z
      .string()
      .optional()
      .meta({ description: 'The JSON Schema this file follows (for editors); ignored by loadlab.', examples: ['../schema/scenario.schema.json'] }),
    name: name.meta({
      description: 'Name of the scenario in reports and metrics. Letters, digits, "_", "." and "-", at most 100.',
      examples: ['steady-mix', 'cold-start-burst'],
    }),
    description: z
      .string()
      .optional()
      .meta({ description: 'Free text for the reader: what the scenario tests.', examples: ['Steady Poisson traffic of /run + polling against 3 workers.'] }),
    seed: z
      .union([z.number().int(), z.string().min(1)])
      .default(1)
      .meta({
        description: 'Seed of every random stream (simulator and clients): the same seed, the same run. `--seed` overrides it. Default: 1.',
        examples: [1, 42, 'nightly'],
      }),
    durationMs: ms
      .positive()
      .max(30 * 86_400_000)
      .meta({ description: 'Length of the traffic phase in ms: arrivals happen in [0, durationMs). Max 30 days.', examples: [60_000, 600_000, 86_400_000] }),
    drainMs: ms
      .max(30 * 86_400_000)
      .default(600_000)
      .meta({
        description: 'After the traffic phase, how long (ms) open sessions may still finish before the run ends. Max 30 days. Default: 600000 (10 min).',
        examples: [600_000, 60_000],
      }),
    endpoint: endpointObjectSchema
      .extend({ id: endpointSchema.shape.id.default('ep') })
      .superRefine(checkEndpointKeys)
      .default(() => endpointSchema.parse({ id: 'ep' }))
      .meta({
        description:
          "The endpoint under test: in-process, the simulated one (workers, scaler, limits, retention, webhooks, faults, workload); against a real deployment (--target), its id names the endpoint. Default: every field's default, id ep.",
        examples: [{ id: 'ep', workersMax: 5, coldStartMs: { dist: 'lognormal', medianMs: 8000, p95Ms: 25_000 }, jobDurationMs: 2000 }],
      }),
    openModel: z
      .strictObject({
        maxInFlight: z
          .number()
          .int()
          .positive()
          .optional()
          .meta({ description: 'Most requests in flight at once, over all flows; further sends wait. Unlimited when unset.', examples: [100, 1000] }),
        maxWaitMs: ms
          .default(60_000)
          .meta({ description: 'A request held by maxInFlight longer than this (ms) is dropped. Default: 60000.', examples: [60_000, 5000] }),
        lateAfterMs: ms
          .default(10)
          .meta({ description: 'A send this much later (ms) than its intended time counts as a late arrival. Default: 10.', examples: [10, 100] }),
      })
      .default({ maxWaitMs: 60_000, lateAfterMs: 10 })
      .meta({
        description:
          'The open model: each arrival is sent at its intended time, whatever answers are pending, unless maxInFlight holds it. Default: {maxWaitMs: 60000, lateAfterMs: 10}.',
        examples: [{ maxInFlight: 500, maxWaitMs: 10_000 }],
      }),
    webhookReceiver: z
      .strictObject({
        failFirstAttempts: z
          .number()
          .int()
          .min(0)
          .default(0)
          .meta({ description: 'The receiver fails the first this many delivery attempts of every job. Default: 0.', examples: [0, 1, 2] }),
        failProbability: z
          .number()
          .min(0)
          .max(1)
          .default(0)
          .meta({ description: 'Probability in [0, 1] that the receiver fails any other delivery attempt. Default: 0.', examples: [0, 0.1] }),
        failStatus: z
          .number()
          .int()
          .min(300)
          .max(599)
          .default(500)
          .meta({ description: 'HTTP status (300–599) of a failed delivery. Default: 500.', examples: [500, 503] }),
      })
      .default({ failFirstAttempts: 0, failProbability: 0, failStatus: 500 })
      .meta({
        description: 'The built-in webhook receiver of run-webhook flows, and how it fails deliveries (to exercise retries). Default: never fails.',
        examples: [{ failFirstAttempts: 1 }, { failProbability: 0.1, failStatus: 503 }],
      }),
    traffic: z
      .array(flowSchema)
      .min(1, 'needs at least one flow')
      .meta({
        description: 'The flows of the run, at least one: each has a name, an arrival process and a client behaviour.',
        examples: [[{ name: 'submit-poll', arrival: { process: 'poisson', ratePerSec: 5 }, client: { behaviour: 'run-poll' } }]],
      }),
    thresholds: z
      .array(thresholdSchema)
      .default([])
      .meta({
        description:
          "Pass/fail checks on the run's results (docs/thresholds.md): `metric{selector} <op> number [every Ns]`, or `{expr, abortOnFail, delayAbortEvalMs}` to end the run early on a failure. Any failure makes `loadlab run` exit 99. Default: [].",
        examples: [
          [
            'p95_ms{run} < 500',
            'error_rate < 0.01',
            'turnaround_p95_ms{flow=submit-poll} < 30000',
            { expr: 'limited_rate < 0.05', abortOnFail: true, delayAbortEvalMs: 60000 },
          ],
        ],
      }),
    plan: planSchema.optional().meta({
      description:
        "`loadlab plan`'s defaults for this scenario: the workersMax range, seeds, GPU and grid (docs/plan.md); flags override each. `loadlab run` uses only its gpu and priceBook (the report's cost).",
      examples: [{ workersMax: '4..16', seeds: 3, gpu: 'A100', grid: { workersMin: [0, 1] } }],
    }),
    slo: z
      .array(thresholdExpr)
      .min(1, 'needs at least one SLO (or leave slo out: `loadlab plan` then uses thresholds)')
      .optional()
      .meta({
        description:
          'Service-level objectives for `loadlab plan` (docs/plan.md): the threshold grammar, and the plan recommends the smallest workersMax meeting every one on every seed. `loadlab run` ignores them. Default: the thresholds.',
        examples: [['turnaround_p95_ms < 30000', 'limited_rate < 0.001'], ['queue_delay_mean_ms{flow=submit-poll} < 500']],
      }),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.traffic.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: ['traffic', i, 'name'], message: `duplicate flow name "${f.name}"` });
      seen.add(f.name);
      if (f.goodput !== undefined && !isStreaming(f.client)) {
        ctx.addIssue({
          code: 'custom',
          path: ['traffic', i, 'goodput'],
          message: `goodput needs a streaming flow (run-stream, or openai-chat with stream: true), not ${f.client.behaviour}`,
        });
      }
      for (const m of chatConflicts(f)) ctx.addIssue({ code: 'custom', path: ['traffic', i, 'client', m.key], message: m.message });
      const refused = behaviourRefusal(f.client, s.endpoint.type);
      if (refused) ctx.addIssue({ code: 'custom', path: ['traffic', i, 'client', 'behaviour'], message: `flow "${f.name}": ${refused}` });
      if ('affinity' in f.client && f.client.affinity !== undefined && s.endpoint.type !== 'load-balancer')
        ctx.addIssue({
          code: 'custom',
          path: ['traffic', i, 'client', 'affinity'],
          message: `flow "${f.name}": affinity needs a load-balancing endpoint (endpoint.type: load-balancer): a queue endpoint's jobs go to whichever worker is free, and no request can name one`,
        });
    });
    const tctx = thresholdContext(s);
    s.thresholds.forEach((entry, i) => {
      const expr = typeof entry === 'string' ? entry : entry.expr;
      if (Array.isArray(checkThreshold(expr, {}))) return; // reported by the entry's own check
      const t = checkThreshold(expr, tctx);
      const path = typeof entry === 'string' ? ['thresholds', i] : ['thresholds', i, 'expr'];
      if (Array.isArray(t)) for (const message of t) ctx.addIssue({ code: 'custom', path, message });
    });
    s.slo?.forEach((expr, i) => {
      if (Array.isArray(checkThreshold(expr, {}))) return; // reported by the entry's own check
      const t = checkThreshold(expr, tctx);
      if (Array.isArray(t)) for (const message of t) ctx.addIssue({ code: 'custom', path: ['slo', i], message });
    });
    if (s.plan?.workersMax !== undefined) {
      const r = parseIntRange(s.plan.workersMax, 'workersMax', 1, PLAN_MAX_POINTS);
      if (typeof r === 'string') ctx.addIssue({ code: 'custom', path: ['plan', 'workersMax'], message: r });
    }
    if (s.endpoint.workersMin > s.endpoint.workersMax) ctx.addIssue({ code: 'custom', path: ['endpoint', 'workersMin'], message: 'must be <= workersMax' });
    const g = s.plan?.grid;
    if (g?.['scaler.value'] && (g['scaler.type'] ?? [s.endpoint.scaler.type]).includes('QUEUE_DELAY')) {
      g['scaler.value'].forEach((v, i) => {
        if (v < QUEUE_DELAY_MIN_S)
          ctx.addIssue({
            code: 'custom',
            path: ['plan', 'grid', 'scaler.value', i],
            message: `QUEUE_DELAY takes a wait of at least ${QUEUE_DELAY_MIN_S} s (RunPod's minimum)`,
          });
      });
    }
  });

export type Scenario = z.infer<typeof scenarioSchema>;

/** What a threshold or SLO of scenario `s` is checked against: its flows (streaming ones, with goodput targets, multi-turn ones) and longest run. */
export function thresholdContext(s: Pick<Scenario, 'traffic' | 'durationMs' | 'drainMs'>): ThresholdContext {
  const streaming = s.traffic.filter((f) => isStreaming(f.client));
  return {
    flows: s.traffic.map((f) => f.name),
    maxRunMs: s.durationMs + s.drainMs,
    streamingFlows: streaming.map((f) => f.name),
    goodputFlows: streaming.filter((f) => f.goodput).map((f) => f.name),
    turnsFlows: s.traffic.filter((f) => hasTurns(f.client)).map((f) => f.name),
  };
}
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type FlowSpec = Scenario['traffic'][number];
