/**
 * The files a scenario needs inside the pods: the scenario itself (key `scenario.yaml`, or
 * `scenario.json` for a .json file, which is how the loader tells them apart) and every replay
 * trace it names by `arrival.file`, at the same path relative to the scenario. The scenario has
 * been validated already (the traces exist and read).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, posix, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CONFIG_MAP_MAX_BYTES, filesBytes, type ScenarioFile } from '../../k8s/scenario-config-map.js';
import { CliError, EXIT } from '../exit-codes.js';

export function scenarioFiles(file: string): ScenarioFile[] {
  const bytes = readFileSync(file);
  const json = /\.json$/i.test(file);
  const key = json ? 'scenario.json' : 'scenario.yaml';
  const files: ScenarioFile[] = [{ key, path: key, bytes }];
  const raw = (json ? JSON.parse(bytes.toString('utf8')) : parseYaml(bytes.toString('utf8'))) as { traffic?: Array<{ arrival?: { file?: unknown } }> };
  (raw.traffic ?? []).forEach((flow, i) => {
    const trace = flow.arrival?.file;
    if (typeof trace !== 'string') return;
    const rel = posix.normalize(trace.replace(/\\/g, '/'));
    if (isAbsolute(trace) || rel === '..' || rel.startsWith('../')) {
      throw new CliError(
        `${file}: traffic.${i}.arrival.file: ${trace} is outside the scenario's folder; the pods see only the scenario's folder: move the trace beside the scenario (or below it)`,
        EXIT.USAGE,
      );
    }
    if (rel === key)
      throw new CliError(`${file}: traffic.${i}.arrival.file: ${trace} would take the scenario's own place (${key}) in the pods: rename the trace`, EXIT.USAGE);
    files.push({ key: `trace-${i}`, path: rel, bytes: readFileSync(resolve(dirname(file), trace)) });
  });
  const total = filesBytes(files);
  if (total > CONFIG_MAP_MAX_BYTES) {
    throw new CliError(
      `${file}: the scenario and its replay traces are ${total} bytes; a ConfigMap carries at most ${CONFIG_MAP_MAX_BYTES}: shorten the traces, or build them into your own image`,
      EXIT.USAGE,
    );
  }
  return files;
}
