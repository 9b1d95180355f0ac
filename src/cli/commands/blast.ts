/**
 * `loadlab blast`: autocannon against one operation of a `serve` instance or a deployment; the
 * result is a RunResult (`kind: "blast"`) written as report.json and report.md under `--out`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { blast, BLAST_OPS, isBlastOp } from '../../load/blast/blast.js';
import { isLoopback } from '../../load/targets/http/http-target.js';
import { displayUrl, redactUrl } from '../../load/targets/target-url.js';
import { renderJson } from '../../report/render-json.js';
import { renderMarkdown } from '../../report/render-md.js';
import { CliError, EXIT } from '../exit-codes.js';
import { verdict } from '../../report/verdict.js';
import { appendStepSummary, exitWithVerdict } from '../verdict-exit.js';
import { COMMANDS } from './catalog.js';

export interface BlastArgs {
  target: string;
  endpoint: string;
  op: string;
  connections: number;
  duration: number;
  body?: string;
  'body-bytes': number;
  'api-key'?: string;
  out?: string;
}

function parseInput(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new CliError('--body: not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new CliError('--body: must be a JSON object (the job input)');
  return v as Record<string, unknown>;
}

export async function blastCommand(a: BlastArgs): Promise<number> {
  if (!isBlastOp(a.op)) throw new CliError(`--op: must be one of ${Object.keys(BLAST_OPS).join(', ')}, got ${a.op}`);
  if (!(Number.isInteger(a.connections) && a.connections >= 1 && a.connections <= 10_000))
    throw new CliError(`--connections: an integer from 1 to 10000, got ${a.connections}`);
  if (!(a.duration > 0 && a.duration <= 3600)) throw new CliError(`--duration: seconds, more than 0 and at most 3600, got ${a.duration}`);
  if (!(Number.isInteger(a['body-bytes']) && a['body-bytes'] >= 0)) throw new CliError(`--body-bytes: a non-negative integer, got ${a['body-bytes']}`);
  try {
    new URL(a.target);
  } catch {
    throw new CliError(`--target: not a URL: ${displayUrl(a.target)}`);
  }
  const apiKey = a['api-key'] ?? process.env.RUNPOD_API_KEY ?? (isLoopback(a.target) ? 'loadlab' : '');
  if (!apiKey) throw new CliError('an API key is needed for a non-loopback target: --api-key or RUNPOD_API_KEY');
  const input = parseInput(a.body);
  const r = await blast({
    url: a.target,
    apiKey,
    endpointId: a.endpoint,
    op: a.op,
    connections: a.connections,
    durationSec: a.duration,
    padBytes: a['body-bytes'],
    ...(input ? { input } : {}),
    causesReported: isLoopback(a.target),
  }).catch((e: Error) => {
    throw new CliError(redactUrl(e.message, a.target), EXIT.RUNTIME_ERROR);
  });
  const dir = a.out ?? join('reports', `blast-${a.op}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.json'), renderJson(r));
  writeFileSync(join(dir, 'report.md'), renderMarkdown(r));
  const o = r.operations[a.op];
  const ac = r.wallClock?.autocannon;
  const codes = o
    ? Object.entries(o.byStatus)
        .map(([k, v]) => `${k}×${v}`)
        .join(' ')
    : 'no answers';
  const v = verdict(r);
  appendStepSummary(r);
  process.stdout.write(`${v.line}\n${v.throttled}\n`);
  process.stdout.write(
    `loadlab blast ${a.op}: ${o?.requests ?? 0} requests in ${(r.elapsedMs / 1000).toFixed(1)} s, ${Math.round(ac?.requestsPerSec ?? 0)} requests/s (${codes}); p99 ${o?.responseMs.summary.p99 ?? 0} ms\n  report: ${join(dir, 'report.md')}\n`,
  );
  // INVALID (every answer 401/403/404 or a transport error): exit 1 with the cause.
  exitWithVerdict(v);
  return EXIT.OK;
}

export const blastCommandModule: CommandModule<object, BlastArgs> = {
  ...COMMANDS.blast,
  builder: (y) =>
    y
      .option('target', { type: 'string', demandOption: true, describe: 'Base URL, e.g. http://127.0.0.1:8080/v2' })
      .option('endpoint', { type: 'string', default: 'ep', describe: 'Endpoint id' })
      .option('op', { type: 'string', default: 'health', describe: `Operation: ${Object.keys(BLAST_OPS).join(' | ')}` })
      .option('connections', { type: 'number', default: 10, describe: 'Connections, one request in flight on each' })
      .option('duration', { type: 'number', default: 10, describe: 'Seconds of load' })
      .option('body', { type: 'string', describe: 'Job input as JSON (run, runsync); default {"prompt":"hello"}' })
      .option('body-bytes', { type: 'number', default: 0, describe: 'Adds input.pad of this many bytes (payload size)' })
      .option('api-key', { type: 'string', describe: 'API key (default: RUNPOD_API_KEY; any key on loopback)' })
      .option('out', { type: 'string', describe: 'Report directory (default reports/blast-<op>/)' }),
  handler: async (a) => {
    await blastCommand(a);
  },
};
