/**
 * The table of docs/architecture.md ("Folders under src/ and what each may import") as data, and
 * the check of an import graph against it. Type-only imports count as imports.
 */
import { builtinModules } from 'node:module';
import type { Edge } from '../helpers/import-graph.js';

/** Project folders each folder of src/ may import (its own always). `cli/` is imported by nobody. */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  contract: [],
  lib: [],
  // Seeded draws from a duration or token-count spec: what the simulator and the load generator share.
  sampling: ['contract', 'lib'],
  sim: ['sampling', 'contract', 'lib'],
  api: ['sim', 'contract', 'lib'],
  server: ['api', 'sim', 'telemetry', 'contract', 'lib'],
  // api/ and sim/ only from load/targets/in-process/: see IN_PROCESS below.
  load: ['sampling', 'contract', 'lib', 'telemetry', 'report'],
  telemetry: ['contract', 'lib'],
  report: ['contract', 'lib'],
  plan: ['load', 'report', 'sampling', 'contract', 'lib'],
  // Fits an endpoint from a stored run's observations, or from vllm bench serve results, whose
  // fit is checked (and refined) by running the embedded simulator: load/ as plan/ uses it.
  calibrate: ['load', 'report', 'sampling', 'contract', 'lib'],
  // Kubernetes manifests as data (the CLI reads files and writes YAML).
  k8s: ['contract', 'lib'],
  cli: ['contract', 'lib', 'sampling', 'sim', 'api', 'server', 'load', 'telemetry', 'report', 'plan', 'calibrate', 'k8s'],
  // The public entry (package.json `exports`): everything but cli/; nothing in src/ imports it.
  'index.ts': ['contract', 'lib', 'sampling', 'sim', 'api', 'server', 'load', 'telemetry', 'report', 'plan'],
  // Ambient declarations of untyped packages; compiled in, imported by nobody.
  types: [],
};

/** The one place under load/ that may reach api/ and sim/: the embedded simulator as a target. */
const IN_PROCESS = 'load/targets/in-process/';
const NOT_IMPORTED = new Set(['cli', 'index.ts']);

/** `sim` for `sim/job.ts`; `index.ts` for the entry itself. */
export function folderOf(rel: string): string {
  return rel.split('/')[0]!;
}

function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
}

/** Why one import breaks the table, or undefined if it keeps to it. */
function problem(e: Edge, exists: (rel: string) => boolean): string | undefined {
  const from = folderOf(e.from);
  const allowed = MAY_IMPORT[from];
  if (allowed === undefined) return `${from}/ is not in the table of docs/architecture.md`;
  if (e.to === undefined) return from === 'lib' && isBuiltin(e.spec) ? 'lib/ imports no node builtin' : undefined;
  if (e.to.startsWith('../')) return 'reaches outside src/';
  if (!exists(e.to)) return 'names no file';
  const to = folderOf(e.to);
  if (to === from) return undefined;
  if (NOT_IMPORTED.has(to)) return `nothing imports ${to === 'cli' ? 'cli/' : to}`;
  if (from === 'load' && (to === 'api' || to === 'sim') && e.from.startsWith(IN_PROCESS)) return undefined;
  return allowed.includes(to) ? undefined : `${from}/ may not import ${to}/`;
}

/** Each import that breaks the table, as `from -> spec: reason`. */
export function ruleViolations(edges: Edge[], exists: (rel: string) => boolean): string[] {
  return edges.flatMap((e) => {
    const why = problem(e, exists);
    return why === undefined ? [] : [`${e.from} -> ${e.spec}: ${why}`];
  });
}
