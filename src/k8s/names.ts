/**
 * Kubernetes object names for one generated run. Every object is named from one base (`--name`,
 * default `loadlab-<scenario name>`): `<base>-scenario` (ConfigMap), `<base>-shards` (the Indexed
 * Job), `<base>-merge` (the merge Job). The base is a DNS-1123 label of at most BASE_MAX_CHARS so
 * that `<base>-shards-<index>`, the pods' hostnames, stay within 63 characters.
 */

/** Longest base name: 63 (a label) minus `-shards-` minus room for a 5-digit pod index. */
export const BASE_MAX_CHARS = 48;

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface ObjectNames {
  base: string;
  configMap: string;
  shardsJob: string;
  mergeJob: string;
}

export function objectNames(base: string): ObjectNames {
  return { base, configMap: `${base}-scenario`, shardsJob: `${base}-shards`, mergeJob: `${base}-merge` };
}

/** Why `name` cannot be a base name, or undefined when it can. */
export function baseNameProblem(name: string): string | undefined {
  if (name.length > BASE_MAX_CHARS) return `at most ${BASE_MAX_CHARS} characters, got ${name.length}`;
  if (!LABEL.test(name)) return 'lower-case letters, digits and "-", starting and ending with a letter or digit';
  return undefined;
}

/** Why `ns` cannot be a namespace (a DNS-1123 label), or undefined when it can. */
export function namespaceProblem(ns: string): string | undefined {
  return ns.length <= 63 && LABEL.test(ns)
    ? undefined
    : 'a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit';
}

/** Why `name` cannot name a Secret or PVC (a DNS-1123 subdomain), or undefined. */
export function objectNameProblem(name: string): string | undefined {
  const ok = name.length <= 253 && name.split('.').every((part) => LABEL.test(part));
  return ok ? undefined : 'a Kubernetes object name: lower-case letters, digits, "-" and ".", at most 253 characters';
}

/** The default base: `loadlab-` and the scenario's name folded into a label. */
export function defaultBaseName(scenarioName: string): string {
  const folded = scenarioName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `loadlab-${folded}`.slice(0, BASE_MAX_CHARS).replace(/-+$/, '');
}
