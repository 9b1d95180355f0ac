/**
 * Loads a simulator config file for `serve`: YAML or JSON, validated in one pass
 * with `parseSimConfig`. A scenario file (top-level `endpoint` object) is accepted too: its
 * endpoint section is served (with the scenario's `seed`), its other sections are ignored.
 * Every problem exits 2 with the file, the field path and the reason.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseSimConfig, type SimConfig } from '../contract/endpoint-config.js';
import { CliError, EXIT } from './exit-codes.js';

/** Endpoint id given to a scenario's endpoint section that names none. */
export const SCENARIO_ENDPOINT_ID = 'ep';

export interface LoadedConfig {
  config: SimConfig;
  /** `scenario`: the file was a scenario and only its endpoint section is used. */
  kind: 'config' | 'scenario';
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function readDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT.USAGE);
  }
  try {
    // YAML 1.2 is a superset of JSON: one parser serves both, with line numbers in its errors.
    return parseYaml(text, { prettyErrors: true, uniqueKeys: true });
  } catch (e) {
    throw new CliError(`${file}: not valid YAML or JSON: ${(e as Error).message.split('\n')[0]}`, EXIT.USAGE);
  }
}

export function loadConfigFile(file: string): LoadedConfig {
  const doc = readDocument(file) ?? {};
  if (!isObject(doc)) throw new CliError(`${file}: (top level): must be a mapping/object`, EXIT.USAGE);
  const scenario = isObject(doc.endpoint);
  const input = scenario
    ? { ...(doc.seed !== undefined ? { seed: doc.seed } : {}), endpoints: [{ id: SCENARIO_ENDPOINT_ID, ...(doc.endpoint as object) }] }
    : doc;
  const r = parseSimConfig(input);
  if (!r.ok) {
    const lines = r.issues.map((i) => {
      const path = scenario ? i.path.replace(/^endpoints\.0(\.|$)/, 'endpoint$1') : i.path;
      return `${file}: ${path || '(top level)'}: ${i.message}`;
    });
    throw new CliError(`invalid config\n${lines.join('\n')}`, EXIT.USAGE);
  }
  return { config: r.config, kind: scenario ? 'scenario' : 'config' };
}
