/**
 * `loadlab serve`: the simulator as an HTTP endpoint. The first stdout line holds
 * the base URL; SIGINT/SIGTERM shut down gracefully with exit 0. Settings: defaults < config
 * file < environment (LOADLAB_API_KEY) < flags. Keys and s3Config are never printed.
 */
import type { CommandModule } from 'yargs';
import type { SimConfig } from '../../contract/endpoint-config.js';
import { parseSimConfig } from '../../contract/endpoint-config.js';
import { startServer, type RunningServer } from '../../server/server.js';
import { loadConfigFile } from '../config-file.js';
import { CliError, EXIT } from '../exit-codes.js';
import { startTracing } from '../otel.js';
import { COMMANDS } from './catalog.js';
import { InternalError } from '../../contract/loadlab-error.js';

export interface ServeArgs {
  config?: string | undefined;
  host: string;
  port: number;
  'api-key'?: (string | number)[] | undefined;
  clock: string;
  speed: number;
  seed?: number | undefined;
  'webhook-allow'?: string[] | undefined;
  limits?: string | undefined;
}

export interface ServeSetup {
  config: SimConfig;
  apiKeys: string[];
  warnings: string[];
}

/** Merges file, environment and flags into the served config; throws CliError (exit 2) on bad input. */
export function resolveServe(a: ServeArgs, env: NodeJS.ProcessEnv = process.env): ServeSetup {
  if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535) throw new CliError(`--port: must be an integer from 0 to 65535, got ${a.port}`);
  if (!(a.speed > 0) || !Number.isFinite(a.speed)) throw new CliError(`--speed: must be a positive number, got ${a.speed}`);
  if (a.clock !== 'real' && a.clock !== 'manual') throw new CliError(`--clock: must be real or manual, got ${a.clock}`);
  if (a.seed !== undefined && !Number.isInteger(a.seed)) throw new CliError(`--seed: must be an integer, got ${a.seed}`);
  const warnings: string[] = [];
  let config: SimConfig;
  if (a.config !== undefined) {
    config = loadConfigFile(a.config).config;
  } else {
    const r = parseSimConfig({});
    if (!r.ok) throw new InternalError('built-in config is invalid');
    config = r.config;
  }
  if (a.seed !== undefined) config = { ...config, seed: a.seed };
  if (a.limits !== undefined) config = { ...config, endpoints: config.endpoints.map((e) => ({ ...e, limits: limitsFlag(a.limits!, e.limits) })) };
  const flagKeys = (a['api-key'] ?? []).map(String).filter((k) => k.length > 0);
  const envKeys = (env.LOADLAB_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  const apiKeys = flagKeys.length > 0 ? flagKeys : envKeys.length > 0 ? envKeys : [...config.apiKeys];
  if (apiKeys.length === 0) warnings.push('no API key configured (--api-key, LOADLAB_API_KEY or apiKeys): any non-empty key is accepted');
  return { config, apiKeys, warnings };
}

function limitsFlag(v: string, limits: SimConfig['endpoints'][number]['limits']): SimConfig['endpoints'][number]['limits'] {
  if (v === 'off') return { ...limits, enabled: false };
  const scale = Number(v);
  if (!(scale > 0) || !Number.isFinite(scale)) throw new CliError(`--limits: must be "off" or a positive scale factor, got ${v}`);
  return { ...limits, enabled: true, scale: limits.scale * scale };
}

export async function serveMain(a: ServeArgs): Promise<void> {
  const setup = resolveServe(a);
  for (const w of setup.warnings) process.stderr.write(`loadlab serve: warning: ${w}\n`);
  // Handlers first: a signal that comes as soon as the URL line is read must not kill the process.
  let detach = () => {};
  const stopped = new Promise<void>((resolve) => {
    const stop = (sig: string) => {
      detach();
      process.stderr.write(`loadlab serve: ${sig}, shutting down\n`);
      resolve();
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    detach = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  });
  const tracing = await startTracing('loadlab-serve');
  let s: RunningServer;
  try {
    s = await startServer({
      config: setup.config,
      host: a.host,
      port: a.port,
      apiKeys: setup.apiKeys,
      clock: a.clock as 'real' | 'manual',
      speed: a.speed,
      webhookAllow: a['webhook-allow'] ?? [],
      tracing: tracing !== undefined,
    });
  } catch (e) {
    detach();
    await tracing?.shutdown();
    throw new CliError(`cannot listen on ${a.host}:${a.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT.RUNTIME_ERROR);
  }
  const ids = [...s.sim.endpoints.keys()].join(', ');
  const clock = a.clock === 'real' ? `real ×${a.speed}` : 'manual';
  // The first stdout line is a promise kept for scripts: they read the base URL from it.
  process.stdout.write(`loadlab serve: listening on ${s.baseUrl} (endpoints: ${ids}; clock ${clock}; seed ${String(setup.config.seed)})\n`);
  // One line per load-balancing endpoint: its base URL (also reached as Host {id}.api.runpod.ai).
  for (const [id, url] of s.balancerUrls) process.stdout.write(`  load-balancing endpoint ${id}: ${url}\n`);
  process.stdout.write(`  metrics ${s.origin}/metrics · health ${s.origin}/healthz · admin ${s.origin}/_sim/clock\n`);
  await stopped;
  await s.close();
  await tracing?.shutdown();
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  ...COMMANDS.serve,
  builder: (y) =>
    y
      .option('config', { type: 'string', describe: 'YAML or JSON simulator config, or a scenario file (its endpoint section)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Listen address' })
      .option('port', { type: 'number', default: 8080, describe: 'Listen port; 0 picks a free port' })
      .option('api-key', { type: 'array', string: true, describe: 'Accepted API key (repeatable; also LOADLAB_API_KEY)' })
      .option('clock', { type: 'string', choices: ['real', 'manual'], default: 'real', describe: 'real: wall time × --speed; manual: POST /_sim/advance' })
      .option('speed', { type: 'number', default: 1, describe: 'Virtual ms per wall ms (real clock)' })
      .option('seed', { type: 'number', describe: "Seed of every random stream (default: the config's, else 1)" })
      .option('webhook-allow', {
        type: 'array',
        string: true,
        describe: 'Host name or IP address allowed to receive webhooks besides loopback (repeatable); a name is trusted wherever it resolves',
      })
      .option('limits', { type: 'string', describe: '"off" disables every limit; a number scales them (benchmarks)' }),
  handler: (a) => serveMain(a),
};
