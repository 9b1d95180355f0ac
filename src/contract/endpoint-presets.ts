/**
 * An endpoint's defaults by how it was created (`endpoint.preset`), RunPod's as of 2026: the
 * console gives an execution timeout of 600 s, an idle timeout of 5 s and FlashBoot on; the REST
 * API (v2) gives 300 s, 10 s and FlashBoot off. The schema's own defaults are the console's
 * (endpoint-config.ts reads them from here), so a config without a preset runs as before.
 *
 * A preset is filled in before the schema reads the config (`withPresetDefaults`): a key the
 * config gives wins. FlashBoot needs a start time the config gives (`flashBoot.startMs`): loadlab
 * models it only where `flashBoot` is set, whatever the preset, so `rest` fills in nothing for it.
 */
export const ENDPOINT_PRESET_NAMES = ['console', 'rest'] as const;
export type EndpointPresetName = (typeof ENDPOINT_PRESET_NAMES)[number];

export interface EndpointPreset {
  executionTimeoutMs: number;
  idleTimeoutMs: number;
  /** RunPod's FlashBoot setting on an endpoint so created (loadlab models it from `flashBoot`, when set). */
  flashBoot: boolean;
}

export const ENDPOINT_PRESETS: Readonly<Record<EndpointPresetName, Readonly<EndpointPreset>>> = {
  console: { executionTimeoutMs: 600_000, idleTimeoutMs: 5000, flashBoot: true },
  rest: { executionTimeoutMs: 300_000, idleTimeoutMs: 10_000, flashBoot: false },
};

/** The keys a preset fills in where the config leaves them out. */
export const PRESET_KEYS = ['executionTimeoutMs', 'idleTimeoutMs'] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One raw endpoint (a scenario's `endpoint`, an entry of a serve config's `endpoints`) with its
 * preset's values where its keys are absent: a copy (the input is not changed), or the input
 * itself when it names no known preset other than the console (whose values are the schema's
 * defaults) or is not an object. An unknown preset is left for the schema to refuse.
 */
export function withPresetDefaults(raw: unknown): unknown {
  if (isObj(raw) && raw.type === 'load-balancer') return withBalancerDefaults(raw);
  if (!isObj(raw) || raw.preset === 'console' || typeof raw.preset !== 'string' || !(raw.preset in ENDPOINT_PRESETS)) return raw;
  const p = ENDPOINT_PRESETS[raw.preset as EndpointPresetName];
  const filled: Obj = { ...raw };
  for (const k of PRESET_KEYS) if (filled[k] === undefined) filled[k] = p[k];
  return filled;
}

/** The kinds of endpoint (`endpoint.type`). */
export const ENDPOINT_TYPES = ['queue', 'load-balancer'] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

/** RunPod: with no worker able to take it, a load-balancing endpoint's request waits up to 2 min, then gets "no workers available". */
export const NO_WORKER_WAIT_MS = 120_000;

/** RunPod ends a load-balancing endpoint's request after 5.5 min. */
export const BALANCER_REQUEST_MAX_MS = 330_000;

/**
 * A load-balancing endpoint's defaults, where its keys are absent: a request's limit of 5.5 min
 * (`executionTimeoutMs`, whatever the preset), and a REQUEST_COUNT scaler aiming at one worker per
 * `workerConcurrency` requests in flight (a worker is added when those there are full). Its
 * preset's idle timeout still applies.
 */
function withBalancerDefaults(raw: Obj): Obj {
  const filled: Obj = { ...raw };
  const p = typeof raw.preset === 'string' && raw.preset in ENDPOINT_PRESETS ? ENDPOINT_PRESETS[raw.preset as EndpointPresetName] : undefined;
  if (filled.idleTimeoutMs === undefined && p) filled.idleTimeoutMs = p.idleTimeoutMs;
  if (filled.executionTimeoutMs === undefined) filled.executionTimeoutMs = BALANCER_REQUEST_MAX_MS;
  const conc = typeof raw.workerConcurrency === 'number' ? raw.workerConcurrency : 1;
  if (filled.scaler === undefined) filled.scaler = { type: 'REQUEST_COUNT', value: conc };
  return filled;
}

/**
 * The endpoint defaults in force and where each came from, in words, for `loadlab run --dry-run`:
 * "executionTimeoutMs 300000 (preset rest), idleTimeoutMs 10000 (preset rest), flashBoot off
 * (preset rest), initTimeoutMs 420000 (default)". A value that differs from its preset's was set
 * in the config; one equal to it is told as the preset's (which it is, given or not). A
 * load-balancing endpoint's executionTimeoutMs and scaler are told against its own defaults (330000
 * whatever the preset; REQUEST_COUNT at workerConcurrency), the same way.
 */
export function endpointDefaultsText(e: {
  type?: EndpointType;
  preset: EndpointPresetName;
  executionTimeoutMs: number;
  idleTimeoutMs: number;
  initTimeoutMs: number;
  flashBoot?: unknown;
  workerConcurrency?: number;
  scaler?: { type: string; value: number };
}): string {
  const p = ENDPOINT_PRESETS[e.preset];
  const from = (given: boolean) => (given ? 'set in the scenario' : `preset ${e.preset}`);
  const flash =
    e.flashBoot !== undefined
      ? 'flashBoot on (set in the scenario)'
      : p.flashBoot
        ? `flashBoot off (preset ${e.preset} has it on, but loadlab needs flashBoot.startMs to model it)`
        : `flashBoot off (preset ${e.preset})`;
  const lb = e.type === 'load-balancer';
  const timeout = lb
    ? `executionTimeoutMs ${e.executionTimeoutMs} (${e.executionTimeoutMs === BALANCER_REQUEST_MAX_MS ? "a load-balancing endpoint's, whatever the preset: RunPod ends its requests at 5.5 min" : 'set in the scenario'})`
    : `executionTimeoutMs ${e.executionTimeoutMs} (${from(e.executionTimeoutMs !== p.executionTimeoutMs)})`;
  const s = e.scaler;
  const scaler =
    lb && s
      ? [
          `scaler ${s.type} ${s.value} (${s.type === 'REQUEST_COUNT' && s.value === (e.workerConcurrency ?? 1) ? "a load-balancing endpoint's: requests in flight per worker, at workerConcurrency" : 'set in the scenario'})`,
        ]
      : [];
  return [
    timeout,
    `idleTimeoutMs ${e.idleTimeoutMs} (${from(e.idleTimeoutMs !== p.idleTimeoutMs)})`,
    ...scaler,
    flash,
    `initTimeoutMs ${e.initTimeoutMs} (${e.initTimeoutMs === INIT_TIMEOUT_DEFAULT_MS ? 'default, as RUNPOD_INIT_TIMEOUT' : 'set in the scenario'})`,
  ].join(', ');
}

/** A worker whose start takes longer than this turns unhealthy (RunPod: 7 min; RUNPOD_INIT_TIMEOUT extends it). */
export const INIT_TIMEOUT_DEFAULT_MS = 420_000;
