/**
 * The reference model's GPU types and hosts (endpoint.gpus, hostCapacity, llm.engine.byGpu), plain:
 * the types in priority order, each with its room (workers placed on it at once); a worker's place
 * is an index into them, -1 while it has none. Without gpus there is one unnamed type, unlimited.
 *
 * A worker is placed when it starts, on the first type (in priority order) with room, and keeps its
 * place until it stops, whatever it does meanwhile (a crash restart, a start that ran past
 * initTimeoutMs). With no room on any type it is throttled, waiting (no cold start drawn, no
 * engine): when a placed worker stops, the waiting workers are placed, the longest waiting first,
 * while a type has room. RunPod (2026): "an endpoint lists up to 3 GPU types in priority order;
 * when the first has no capacity its workers are throttled and start on the next type that has
 * some".
 */
import type { RefConfig, RefEngineConfig } from './types.js';

export interface GpuType {
  /** The type's name ('' when the endpoint lists none). */
  name: string;
  /** Workers placed on it at once (Infinity: unlimited). */
  room: number;
}

export function gpuTypes(cfg: RefConfig): GpuType[] {
  return (cfg.gpus ?? ['']).map((name) => ({ name, room: cfg.hostCapacity?.[name] ?? Infinity }));
}

/** The first type, in priority order, with room for one more worker, or -1; `places`: each worker's place. */
export function firstWithRoom(types: GpuType[], places: number[]): number {
  return types.findIndex((g, t) => places.filter((p) => p === t).length < g.room);
}

/** The engine on a worker of type `name`: the engine's own keys, each replaced by the type's where it gives one. */
export function engineOnType(e: RefEngineConfig, name: string): RefEngineConfig {
  const { byGpu, ...own } = e;
  return { ...own, ...byGpu?.[name] };
}
