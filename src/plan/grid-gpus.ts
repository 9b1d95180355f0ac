/**
 * The `gpus` knob of a plan's grid: each value is a list of GPU types in priority order (an
 * endpoint's `gpus`). On the command line the lists are separated by commas and a list's types
 * joined by `+`: `--grid gpus=H100-PRO,A100,H100-PRO+A100` sweeps [H100-PRO], [A100] and
 * [H100-PRO, A100]. A point's endpoint keeps the hostCapacity and llm.engine.byGpu entries of the
 * types it lists, and its engine takes vLLM's defaults on its list (load/scenario/engine-defaults.ts).
 */
import { DEFAULT_PRICE_BOOK, gpuIn, PRICE_BOOKS } from '../report/prices.js';
import { engineForGpus, type EngineLimitsGiven } from '../load/scenario/engine-defaults.js';

/** How a list is written on the command line and in plan.md: its types joined by `+`. */
export const GPU_LIST_JOIN = '+';

export const gpuListText = (list: readonly string[]): string => list.join(GPU_LIST_JOIN);

/** `H100-PRO+A100` → ['H100-PRO', 'A100'], or a problem. */
export function parseGpuList(text: string): string[] | string {
  const types = text.split(GPU_LIST_JOIN).map((t) => t.trim());
  if (types.some((t) => t === '')) return `"${text}" has an empty GPU type: join a list's types with ${GPU_LIST_JOIN}, e.g. H100-PRO${GPU_LIST_JOIN}A100`;
  return types;
}

/** Every GPU type the lines list, in first-seen order (empty: the grid does not sweep gpus). */
export function gridGpuTypes(lines: readonly Record<string, unknown>[]): string[] {
  const out: string[] = [];
  for (const l of lines) if (Array.isArray(l.gpus)) for (const g of l.gpus as string[]) if (!out.includes(g)) out.push(g);
  return out;
}

/** A type no price book knows (a plan prices every point), or undefined. */
export function unknownGpu(list: readonly string[]): string | undefined {
  return list.find((g) => !PRICE_BOOKS.some((b) => gpuIn(b, g) !== undefined));
}
export const knownGpus = (): string => DEFAULT_PRICE_BOOK.names.join(', ');

type Obj = Record<string, unknown>;
const only = (o: unknown, keys: readonly string[]): Obj | undefined => {
  if (typeof o !== 'object' || o === null) return undefined;
  const kept = Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
  return Object.keys(kept).length ? kept : undefined;
};

/**
 * The endpoint (schema input) on this list of GPU types: hostCapacity and the engine's byGpu keep
 * the entries of its types; with `given` (what the scenario's engine gave of its limits), the
 * engine's limits are vLLM's defaults on the list where the scenario gave none.
 */
export function withGpuList(e: Obj, list: readonly string[], given?: EngineLimitsGiven): Obj {
  const out: Obj = { ...e, gpus: [...list] };
  const cap = only(e.hostCapacity, list);
  if (cap) out.hostCapacity = cap;
  else delete out.hostCapacity;
  const llm = e.llm as Obj | undefined;
  const engine = llm?.engine as Obj | undefined;
  if (!llm || !engine) return out;
  let on: Obj;
  if (given) on = engineForGpus(engine, list, given);
  else {
    on = { ...engine };
    const byGpu = only(engine.byGpu, list);
    if (byGpu) on.byGpu = byGpu;
    else delete on.byGpu;
  }
  out.llm = { ...llm, engine: on };
  return out;
}
