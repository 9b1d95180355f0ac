/**
 * The `type` knob of a plan's grid: the same traffic on a queue endpoint and on a load-balancing
 * one (`--grid type=queue,load-balancer`). A point on the other kind than the scenario's is the
 * scenario's endpoint with the keys that differ between the kinds carried over thus (loadlab's
 * choice, docs/plan.md "Queue or load-balancing endpoint"):
 *
 * - executionTimeoutMs: the kind's default where the scenario left it to its default (the
 *   preset's 600 000 or 300 000 on a queue endpoint, 330 000 on a load-balancing one), else the
 *   scenario's, at most 330 000 on a load-balancing point (RunPod ends its requests at 5.5 min
 *   whatever the worker allows).
 * - scaler: a QUEUE_DELAY scaler has no queue to measure on a load-balancing point, which takes
 *   that kind's default, REQUEST_COUNT at the point's workerConcurrency; a REQUEST_COUNT scaler is
 *   kept on either kind, so both scale by the same rule. A grid's own `scaler.type` wins (and
 *   QUEUE_DELAY on a load-balancing point is then a grid error).
 *
 * A loaded scenario has its defaults filled in, so "left to its default" is read off the value:
 * one equal to the default is taken as the default (as `--dry-run` tells defaults).
 */
import { BALANCER_REQUEST_MAX_MS, ENDPOINT_PRESETS, ENDPOINT_TYPES, type EndpointPresetName, type EndpointType } from '../contract/endpoint-presets.js';
import { behaviourRefusal } from '../load/behaviours/registry.js';
import type { Scenario } from '../load/scenario/schema.js';

type Obj = Record<string, unknown>;

/** A `type` value, or why not. */
export function parseEndpointType(v: string): EndpointType | string {
  return (ENDPOINT_TYPES as readonly string[]).includes(v) ? (v as EndpointType) : `"${v}" is not an endpoint type; types: ${ENDPOINT_TYPES.join(', ')}`;
}

/**
 * The endpoint (schema input, defaults filled in) as one of kind `type`; `knobs`: the point's
 * other knobs (a grid's scaler.type or scaler.value is left as it is).
 */
export function withEndpointType(e: Obj, type: EndpointType, knobs: Obj = {}): Obj {
  const from = (e.type as EndpointType | undefined) ?? 'queue';
  if (from === type) return e;
  const preset = ENDPOINT_PRESETS[(e.preset as EndpointPresetName | undefined) ?? 'console'];
  const out: Obj = { ...e, type };
  const timeout = e.executionTimeoutMs as number | undefined;
  const scaler = e.scaler as { type: string; value: number } | undefined;
  if (type === 'load-balancer') {
    out.executionTimeoutMs =
      timeout === undefined || timeout === preset.executionTimeoutMs ? BALANCER_REQUEST_MAX_MS : Math.min(timeout, BALANCER_REQUEST_MAX_MS);
    if (knobs['scaler.type'] === undefined && scaler?.type !== 'REQUEST_COUNT')
      out.scaler = { type: 'REQUEST_COUNT', value: knobs['scaler.value'] ?? e.workerConcurrency ?? 1 };
  } else if (timeout === undefined || timeout === BALANCER_REQUEST_MAX_MS) out.executionTimeoutMs = preset.executionTimeoutMs;
  return out;
}

/** The kind of a point: its grid's `type`, else the scenario's. */
export const typeAt = (sc: Pick<Scenario, 'endpoint'>, knobs: { type?: unknown } = {}): EndpointType =>
  (knobs.type as EndpointType | undefined) ?? sc.endpoint.type;

/**
 * The flows that cannot run on a kind the grid plans (`http` needs a load-balancing endpoint, the
 * queue behaviours a queue one), each naming `where`, the flow, its behaviour and the kind.
 */
export function trafficProblems(sc: Scenario, lines: readonly { type?: unknown }[], where: string): string[] {
  const kinds = [...new Set(lines.map((k) => typeAt(sc, k)))];
  return kinds.flatMap((kind) =>
    sc.traffic.flatMap((f) => {
      const why = behaviourRefusal(f.client, kind);
      return why ? [`${where}: type=${kind}: flow "${f.name}" (behaviour ${f.client.behaviour}) cannot run on a ${kind} endpoint: ${why}`] : [];
    }),
  );
}
