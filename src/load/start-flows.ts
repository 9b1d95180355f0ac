/**
 * The run's flows, started: one driver per flow (open: FlowDriver; closed: ClosedFlowDriver), each
 * arming its first sessions on the target's clock, with the behaviour each session runs and, when
 * tracing is on, the session tracer.
 */
import type { Tracer } from '@opentelemetry/api';
import { usersOfShard } from './arrivals/closed.js';
import { arrivalGenerator, isClosed } from './arrivals/registry.js';
import { shardArrivals, type ArrivalShard } from './arrivals/shard.js';
import { behaviourOperation, behaviourSession, hasTurns, isStreaming } from './behaviours/registry.js';
import type { BehaviourEnv } from './behaviours/types.js';
import { ClosedFlowDriver } from './closed-flow-driver.js';
import { FlowDriver } from './flow-driver.js';
import type { FlowParts, Live } from './flow-sessions.js';
import type { RunParts } from './run-result-of.js';
import type { Scenario } from './scenario/schema.js';
import type { Target } from './targets/target.js';
import type { SessionTracer, ToHrTime } from '../telemetry/session-tracing.js';

/** Sessions open and flows still generating (Live), and the session tracer (none without a tracer). */
export interface LiveFlows extends Live {
  sessions: SessionTracer | undefined;
}

export interface FlowOptions {
  /** Traces each session (RunOptions.tracer); none when undefined. */
  tracer?: Tracer | undefined;
  /** Run only this shard's arrivals, and this shard's users of a closed flow (RunOptions.shard). */
  shard?: ArrivalShard | undefined;
}

export async function startFlows(sc: Scenario, run: RunParts, opts: FlowOptions): Promise<LiveFlows> {
  const { target, rec, rand, client, webhooks } = run;
  const sessions = opts.tracer ? await sessionTracer(opts.tracer, target, sc.endpoint.id) : undefined;
  const live: LiveFlows = { active: 0, generating: sc.traffic.length, sessions };
  const balancer = sc.endpoint.type === 'load-balancer';
  for (const f of sc.traffic) {
    const env: BehaviourEnv = { flow: f.name, client, target, rec, rng: rand.stream(`client/${f.name}`), webhooks, balancer };
    if (isStreaming(f.client)) env.streams = rec.streamMetrics.flow(f.name, f.goodput);
    if (hasTurns(f.client)) env.turns = rec.flowTurns(f.name);
    const a = f.arrival;
    const acc = rec.flow(f.name, {
      operation: behaviourOperation(f.client, balancer),
      behaviour: f.client.behaviour,
      arrival: a.process,
      ...(isClosed(a) ? { users: usersOfShard(a.users, opts.shard) } : {}),
    });
    const flow: FlowParts = { name: f.name, start: behaviourSession(f.client, env), target, rec, live, acc, tracer: sessions };
    if (isClosed(a)) {
      new ClosedFlowDriver(flow, a, rand, sc.durationMs, opts.shard).schedule();
      continue;
    }
    const all = arrivalGenerator(a, { rng: rand.stream(`arrivals/${f.name}`), durationMs: sc.durationMs });
    const gen = opts.shard ? shardArrivals(all, opts.shard) : all;
    new FlowDriver(flow, gen, sc.durationMs).schedule();
  }
  return live;
}

/**
 * The session tracer on the run clock: wall ms since the run's time 0 (`drive` sets it, before
 * any session) onto the epoch, or virtual ms as they are (RunOptions.tracer in run-scenario.ts).
 * Loaded only when tracing is on: `@opentelemetry/api` costs a run without it some 20 ms of
 * start-up.
 */
async function sessionTracer(tracer: Tracer, target: Target, endpointId: string): Promise<SessionTracer> {
  const { msToHrTime, SessionTracer } = await import('../telemetry/session-tracing.js');
  let zero: number | undefined;
  const time: ToHrTime =
    target.clock === 'virtual' ? msToHrTime : (ms) => msToHrTime((zero ??= performance.timeOrigin + performance.now() - target.now()) + ms);
  return new SessionTracer(tracer, time, endpointId);
}
