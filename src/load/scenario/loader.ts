/**
 * Reads a scenario file (YAML, or JSON by extension), validates it in one pass and reads replay
 * traces. Every problem comes back at once as `file: field.path: reason`, with a stable code.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { engineLimitsGiven, withGpuEngineDefaults, type EngineLimitsGiven } from './engine-defaults.js';
import { withPresetDefaults } from '../../contract/endpoint-presets.js';
import { scenarioSchema, type Scenario } from './schema.js';
import { readTrace } from './trace-file.js';
import { loopProblem, traceOf } from '../arrivals/replay.js';
import { checkTokenTrace } from './token-trace-check.js';
import { deepFreeze } from '../../contract/deep-freeze.js';
import { didYouMean } from '../../lib/edit-distance.js';

export const SCENARIO_ERRORS = {
  CFG_ERR_SCENARIO_UNREADABLE: 'cannot read the scenario file',
  CFG_ERR_SCENARIO_SYNTAX: 'the file is not valid YAML/JSON',
  CFG_ERR_SCENARIO_INVALID: 'a field is missing, unknown or out of range',
  CFG_ERR_TRACE_FILE: 'a replay trace cannot be read',
} as const;
export type ScenarioErrorCode = keyof typeof SCENARIO_ERRORS;

export interface ScenarioIssue {
  code: ScenarioErrorCode;
  file: string;
  /** Dotted field path (`traffic.0.arrival.ratePerSec`); empty for the whole file. */
  path: string;
  message: string;
}

/**
 * `engineGiven`: the batch limits the file's llm.engine gives itself, before vLLM's defaults were
 * filled in (absent: no engine), for a plan whose grid points list other GPU types (engine-defaults.ts).
 */
export type LoadResult = { ok: true; scenario: Scenario; file: string; engineGiven?: EngineLimitsGiven } | { ok: false; issues: ScenarioIssue[] };

export function formatIssue(i: ScenarioIssue): string {
  return `${i.file}: ${i.path || '(file)'}: ${i.message} [${i.code}]`;
}

/**
 * How a scenario is read: `gpu` (the --gpu flag) names its GPU in place of its plan.gpu, for the
 * engine's defaults. `readTokenTraces` (default true): false leaves a token trace's file unread
 * (its path still resolved), for a stored scenario whose runs are done (`loadlab plan merge`
 * renders a plan from its shards' figures, maybe on a machine without the trace).
 */
export interface LoadOptions {
  gpu?: string | undefined;
  readTokenTraces?: boolean;
}

export function loadScenarioFile(file: string, opts: LoadOptions = {}): LoadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, issues: [{ code: 'CFG_ERR_SCENARIO_UNREADABLE', file, path: '', message: (e as Error).message }] };
  }
  let raw: unknown;
  try {
    raw = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` (line ${e.linePos[0].line})` : '';
    return { ok: false, issues: [{ code: 'CFG_ERR_SCENARIO_SYNTAX', file, path: '', message: `${(e as Error).message.split('\n')[0]}${where}` }] };
  }
  return parseScenario(raw, file, opts);
}

/**
 * Validates an already-parsed scenario; `file` names it in messages and anchors relative trace
 * paths. An engine without maxNumSeqs / maxNumBatchedTokens gets vLLM's defaults on the GPU types
 * listed (endpoint.gpus) or named (`opts.gpu`, else plan.gpu; engine-defaults.ts), and the endpoint its preset's defaults where
 * it leaves the keys out (`endpoint.preset`, contract/endpoint-presets.ts). The scenario returned is deep-frozen
 * (contract/deep-freeze.ts).
 */
export function parseScenario(raw: unknown, file: string, opts: LoadOptions = {}): LoadResult {
  const r = scenarioSchema.safeParse(withEndpointPreset(withGpuEngineDefaults(raw ?? {}, opts.gpu)), { error: unknownKeyMessage });
  if (!r.success) return { ok: false, issues: r.error.issues.map((i) => ({ code: 'CFG_ERR_SCENARIO_INVALID', file, path: issuePath(i), message: i.message })) };
  const issues: ScenarioIssue[] = [];
  r.data.traffic.forEach((f, n) => {
    const a = f.arrival;
    if (a.process !== 'replay' || a.file === undefined) return;
    if (a.format !== undefined) {
      // A token trace stays on disk: its path resolved now, every row checked in one streaming pass.
      a.file = resolve(dirname(file), a.file);
      if (opts.readTokenTraces === false) return;
      const why = checkTokenTrace(traceOf(a), a.loop);
      if (why) issues.push({ code: 'CFG_ERR_TRACE_FILE', file, path: `traffic.${n}.arrival.${why.field}`, message: why.message });
      return;
    }
    const t = readTrace(resolve(dirname(file), a.file));
    if (typeof t === 'string') issues.push({ code: 'CFG_ERR_TRACE_FILE', file, path: `traffic.${n}.arrival.file`, message: t });
    else {
      const why = loopProblem(t, a.loop, a.speed, a);
      if (why) issues.push({ code: 'CFG_ERR_SCENARIO_INVALID', file, path: `traffic.${n}.arrival.loop`, message: `${a.file}: ${why}` });
      a.timestampsMs = t;
      delete a.file;
    }
  });
  if (issues.length) return { ok: false, issues };
  const engineGiven = engineLimitsGiven(raw);
  return { ok: true, scenario: deepFreeze(r.data), file, ...(engineGiven ? { engineGiven } : {}) };
}

/** The raw scenario with its endpoint's preset filled in: a copy along the path, or the input itself. */
function withEndpointPreset(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !('endpoint' in raw)) return raw;
  const endpoint = withPresetDefaults(raw.endpoint);
  return endpoint === raw.endpoint ? raw : { ...raw, endpoint };
}

/** An unknown key, with the nearest key the object knows ("did you mean …?"). */
function unknownKeyMessage(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.code === 'invalid_union') return misspeltDiscriminator(iss);
  if (iss.code !== 'unrecognized_keys') return undefined;
  const shape = (iss.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  const known = shape ? Object.keys(shape) : [];
  return iss.keys.map((k) => `unknown key "${k}"${didYouMean(k, known)}`).join('; ');
}

/** A tagged object (`behaviour:`, `process:`) whose tag key is misspelt: name the key meant. */
function misspeltDiscriminator(iss: z.core.$ZodRawIssue): string | undefined {
  const d = (iss as { discriminator?: unknown }).discriminator;
  const input = iss.input;
  if (typeof d !== 'string' || !input || typeof input !== 'object' || d in input) return undefined;
  const near = Object.keys(input).find((k) => didYouMean(k, [d]) !== '');
  return near === undefined ? undefined : `unknown key "${near}"; did you mean "${d}"?`;
}

function issuePath(i: z.core.$ZodIssue): string {
  const base = i.path.map(String);
  if (i.code === 'unrecognized_keys') return [...base, i.keys.join(',')].join('.');
  return base.join('.');
}
