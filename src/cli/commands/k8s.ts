/**
 * `loadlab k8s run|plan SCENARIO --parallelism N --image IMAGE --storage …`: writes the Kubernetes
 * manifests of a sharded run (against --target) or a sharded plan sweep into `--out` (default
 * reports/<scenario-name>/k8s/): shards.yaml (the scenario's ConfigMap and an Indexed Job of N
 * pods, pod I running shard I of N) and merge.yaml (the Job that merges the shards), then prints
 * the kubectl commands that apply them in order. docs/kubernetes.md explains the manifests.
 * Exit 2 for a bad flag or scenario; nothing is written then.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import type { K8sOptions } from '../../k8s/k8s-options.js';
import { buildManifests, renderYaml } from '../../k8s/manifests.js';
import { defaultBaseName, objectNames } from '../../k8s/names.js';
import type { PassFlags } from '../../k8s/pod-commands.js';
import { s3RunUrl } from '../../k8s/storage.js';
import { displayUrl, isLoopback } from '../../load/targets/target-url.js';
import { coldStartRefusal } from '../../load/targets/sim-only-metrics.js';
import { renderPlan } from '../../plan/dry-run.js';
import { combinations, gridOfScenario, parseGrid, type GridAxis } from '../../plan/grid.js';
import { gridGpuTypes } from '../../plan/grid-gpus.js';
import { slosOf } from '../../plan/slo.js';
import { parseWorkersRange } from '../../plan/workers-range.js';
import { CliError, EXIT } from '../exit-codes.js';
import { checkNames, httpUrl, imageOf, parallelismOf, requestsOf, secretRefOf, startAtOf, storageOf, type K8sCommonArgs } from './k8s-flags.js';
import { scenarioFiles } from './k8s-files.js';
import { checkRunFlags } from './run-flags.js';
import { healthEveryOf } from './health-every-flag.js';
import { k8sWebhooksOf, type K8sWebhookArgs } from './k8s-webhooks.js';
import { loadOrExit } from './run.js';
import { COMMANDS } from './catalog.js';
import { sweepOptions } from './plan-flags.js';
import { priceFlagGiven, priceOptions, pricesOf, type PriceArgs } from './price-flags.js';

interface K8sArgs extends K8sCommonArgs, PriceArgs, K8sWebhookArgs {
  // run
  target?: string;
  'health-every'?: string;
  'start-at'?: string;
  'start-delay'?: number;
  'api-key'?: string;
  'api-key-secret'?: string;
  seed?: number | string;
  endpoint?: string;
  connections?: number;
  'max-requests'?: number;
  yes?: boolean;
  // plan
  'workers-max'?: string;
  'workers-min'?: string;
  seeds?: number;
  slo?: string[];
  grid?: string[];
  exhaustive?: boolean;
  jobs?: number;
}

const usage = (m: string) => new CliError(m, EXIT.USAGE);

/** Flags handed to every shard as given (after the checks); repeatable ones once per value. */
function passFlags(a: K8sArgs, names: readonly (keyof K8sArgs & string)[]): PassFlags {
  return names.flatMap((f): PassFlags => {
    const v = a[f];
    if (v === undefined || v === false) return [];
    if (v === true) return [[f]];
    return (Array.isArray(v) ? v : [v]).map((x) => [f, String(x)] as const);
  });
}

function runOptions(
  a: K8sArgs,
  nowMs: number,
): Pick<K8sOptions, 'target' | 'startAt' | 'apiKeySecret' | 'flags' | 'env'> & { scenario: ReturnType<typeof loadOrExit> } {
  if (a['api-key'] !== undefined)
    throw usage(
      '--api-key: a key is never written into manifests: store it in a Secret (kubectl create secret generic NAME --from-literal=RUNPOD_API_KEY=…) and give --api-key-secret NAME',
    );
  const priceFlag = priceFlagGiven(a);
  if (priceFlag) throw usage(`--${priceFlag}: only with \`loadlab k8s plan\`: the shards of a run send to a URL, which shows no workers to bill`);
  if (!a.target)
    throw usage(
      '--target: required: the base URL the shards send to (sharding against the embedded simulator is refused: one endpoint is one state; shard plan sweeps instead with `loadlab k8s plan`)',
    );
  httpUrl('target', a.target);
  checkRunFlags({
    ...(typeof a.seed === 'number' ? { seed: a.seed } : {}),
    target: a.target,
    ...(a.connections !== undefined ? { connections: a.connections } : {}),
    ...(a['max-requests'] !== undefined ? { 'max-requests': a['max-requests'] } : {}),
  });
  // Checked as `loadlab run` checks it; every pod gets it, shard 0 reads /health for all.
  healthEveryOf({ target: a.target, ...(a['health-every'] !== undefined ? { 'health-every': a['health-every'] } : {}) });
  const startAt = startAtOf(a['start-at'], a['start-delay'], nowMs);
  const apiKeySecret = secretRefOf(a['api-key-secret']);
  const sc = loadOrExit(a.scenario);
  const blind = coldStartRefusal(sc, 'http');
  if (blind) throw usage(`${a.scenario}: ${blind}`);
  const plan = renderPlan(sc);
  if (!isLoopback(a.target) && plan.requests > 1000 && !a.yes)
    throw usage(
      `${plan.text}this run sends about ${plan.requests} requests to ${displayUrl(a.target)} (from all shards together); add --yes to go ahead (it is passed to every shard)`,
    );
  const hooks = k8sWebhooksOf(a, sc, a.scenario);
  const flags = [...passFlags(a, ['seed', 'endpoint', 'connections', 'max-requests', 'health-every', 'yes']), ...hooks.flags];
  return { scenario: sc, target: a.target, startAt, flags, ...(hooks.env.length ? { env: hooks.env } : {}), ...(apiKeySecret ? { apiKeySecret } : {}) };
}

function planOptions(a: K8sArgs): Pick<K8sOptions, 'flags'> & { scenario: ReturnType<typeof loadOrExit> } {
  if (a['workers-max'] !== undefined) {
    const r = parseWorkersRange(a['workers-max']);
    if (typeof r === 'string') throw usage(`--workers-max: ${r}`);
  }
  for (const f of ['seeds', 'jobs'] as const) {
    const v = a[f];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw usage(`--${f}: must be a whole number >= 1, got ${v}`);
  }
  const axes = parseGrid(a.grid ?? []);
  if (typeof axes[0] === 'string') throw usage(`bad grid:\n${(axes as string[]).map((p) => `  ${p}`).join('\n')}`);
  const sc = loadOrExit(a.scenario, a.gpu);
  const slos = slosOf(sc, a.slo ?? []);
  if (Array.isArray(slos)) throw usage(`bad SLO:\n${slos.map((p) => `  ${p}`).join('\n')}`);
  if (!slos.list.length) throw usage(`${a.scenario}: slo: no SLOs to plan for: add an slo: list (or thresholds:) to the scenario, or give --slo EXPR`);
  // Checked as \`loadlab plan\` checks them (a bad one exits 2 before anything is written), then given to every shard.
  const gridGpus = gridGpuTypes(combinations(a.grid?.length ? (axes as GridAxis[]) : gridOfScenario(sc.plan?.grid)));
  if (gridGpus.length) pricesOf(a, sc.plan, a.scenario, gridGpus, a.grid?.length ? '--grid gpus' : `${a.scenario}: plan.grid.gpus`);
  else pricesOf(a, sc.plan, a.scenario, sc.endpoint.gpus);
  return {
    scenario: sc,
    flags: passFlags(a, [
      'workers-max',
      'workers-min',
      'seeds',
      'seed',
      'slo',
      'grid',
      'exhaustive',
      'jobs',
      'gpu',
      'price-book',
      'price-flex',
      'price-active',
    ]),
  };
}

export function k8sCommand(mode: 'run' | 'plan', a: K8sArgs, nowMs = Date.now()): number {
  const shards = parallelismOf(a.parallelism);
  const image = imageOf(a.image);
  checkNames(a);
  const storage = storageOf(a);
  const requests = requestsOf(a);
  const { scenario, ...modeOptions } = mode === 'run' ? runOptions(a, nowMs) : planOptions(a);
  const files = scenarioFiles(a.scenario);
  const base = a.name ?? defaultBaseName(scenario.name);
  const o: K8sOptions = {
    mode,
    base,
    shards,
    image,
    storage,
    files,
    ...(a.namespace ? { namespace: a.namespace } : {}),
    ...(requests ? { requests } : {}),
    ...modeOptions,
  };
  const m = buildManifests(o);
  const dir = a.out ?? join('reports', scenario.name, 'k8s');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'shards.yaml'), renderYaml(m.shards));
  writeFileSync(join(dir, 'merge.yaml'), renderYaml([m.merge]));
  process.stdout.write(nextSteps(o, dir));
  return EXIT.OK;
}

/** What was written and the kubectl commands that follow, in order. */
function nextSteps(o: K8sOptions, dir: string): string {
  const n = objectNames(o.base);
  const ns = o.namespace ? ` -n ${o.namespace}` : '';
  const where = o.storage.kind === 'pvc' ? `PersistentVolumeClaim ${o.storage.claim}, folder ${o.base}/` : `${s3RunUrl(o.storage, o.base)}/`;
  return [
    `loadlab k8s ${o.mode}: ${o.shards} shard${o.shards > 1 ? 's' : ''}${o.mode === 'run' ? ` against ${o.target}, starting together at ${o.startAt}` : ' of the plan sweep'}`,
    `  ${join(dir, 'shards.yaml')}: ConfigMap ${n.configMap}, Indexed Job ${n.shardsJob}`,
    `  ${join(dir, 'merge.yaml')}: Job ${n.mergeJob}`,
    `  results: ${where}shard-0 … shard-${o.shards - 1}, merged/`,
    '',
    'Then:',
    `  kubectl apply${ns} -f ${join(dir, 'shards.yaml')}${o.mode === 'run' ? `     # before ${o.startAt}: the shards wait for that instant` : ''}`,
    `  kubectl wait${ns} --for=condition=complete --timeout=24h job/${n.shardsJob}`,
    `  kubectl apply${ns} -f ${join(dir, 'merge.yaml')}`,
    `  kubectl wait${ns} --for=condition=complete --timeout=1h job/${n.mergeJob}; kubectl logs${ns} job/${n.mergeJob}`,
    '',
  ].join('\n');
}

function commonOptions(y: Argv): Argv<K8sCommonArgs> {
  return y
    .positional('scenario', { type: 'string', demandOption: true, describe: 'Scenario file (YAML or JSON); its replay traces must lie in its folder' })
    .option('parallelism', { type: 'number', describe: 'Pods of the Indexed Job, one shard each (completions = parallelism = N)' })
    .option('image', { type: 'string', describe: "The loadlab image the pods run (built from the repository's Dockerfile)" })
    .option('storage', {
      type: 'string',
      describe: 'Where results go: pvc:NAME (a ReadWriteMany PersistentVolumeClaim) or s3://BUCKET/PREFIX (any S3-compatible store)',
    })
    .option('s3-secret', { type: 'string', describe: 'With s3://: the Secret holding AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY' })
    .option('s3-endpoint', { type: 'string', describe: "With s3://: the store's URL when it is not AWS S3 (MinIO, R2, …)" })
    .option('s3-region', { type: 'string', describe: 'With s3://: the region (default us-east-1)' })
    .option('aws-cli-image', { type: 'string', describe: 'With s3://: the AWS CLI image that moves results (default amazon/aws-cli:2.17.0)' })
    .option('cpu', { type: 'string', describe: "CPU each shard's pod requests, e.g. 2 or 500m (default: none; for `k8s plan` give --jobs to match)" })
    .option('memory', { type: 'string', describe: "Memory each shard's pod requests, e.g. 1Gi (default: none)" })
    .option('namespace', { type: 'string', describe: "Namespace of every object (default: kubectl's current one)" })
    .option('name', { type: 'string', describe: "Base of the objects' names (default loadlab-<scenario name>)" })
    .option('out', {
      type: 'string',
      describe: 'Directory of shards.yaml and merge.yaml (default reports/<scenario-name>/k8s/)',
    }) as unknown as Argv<K8sCommonArgs>;
}

const runModule: CommandModule<object, K8sArgs> = {
  command: 'run <scenario>',
  describe: "Manifests of a sharded run against --target: each pod sends its 1/N of every flow's arrivals from a common start",
  builder: (y) =>
    commonOptions(y)
      .option('target', { type: 'string', describe: 'Base URL the shards send to (no credentials in it)' })
      .option('api-key-secret', {
        type: 'string',
        describe: 'NAME or NAME:KEY of the Secret holding the API key (KEY default RUNPOD_API_KEY); it reaches the pods as env RUNPOD_API_KEY',
      })
      .option('api-key', { type: 'string', hidden: true })
      // Refused with the reason (runOptions), not as unknown flags.
      .option('gpu', { type: 'string', hidden: true })
      .option('price-book', { type: 'string', hidden: true })
      .option('price-flex', { type: 'number', hidden: true })
      .option('price-active', { type: 'number', hidden: true })
      .option('start-at', { type: 'string', describe: 'Common start of every shard, ISO-8601 with a zone, at most 24 h ahead' })
      .option('start-delay', { type: 'number', describe: 'Without --start-at: start this many seconds after the manifests are written (default 300)' })
      .option('seed', { type: 'number', describe: "Seed (default: the scenario's); the same in every shard" })
      .option('endpoint', { type: 'string', describe: "Endpoint id (default: the scenario's endpoint.id)" })
      .option('connections', { type: 'number', describe: "Each shard's socket pool (see loadlab run)" })
      .option('max-requests', { type: 'number', describe: "Each shard's --max-requests (see loadlab run)" })
      .option('health-every', {
        type: 'string',
        describe: "How often shard 0 reads the endpoint's GET /health for all the shards (see loadlab run; default 5s, 0: off); the merge keeps its series",
      })
      .option('webhook-port', {
        type: 'number',
        describe: 'Scenarios with run-webhook flows: each pod receives webhooks on 0.0.0.0:PORT, and the endpoint is given http://<pod IP>:PORT',
      })
      .option('webhook-url', {
        type: 'string',
        describe: 'With --webhook-port: the base URL per pod instead, with $(JOB_COMPLETION_INDEX) in it (an Ingress or tunnel routed to pod I)',
      })
      .option('yes', {
        type: 'boolean',
        describe: 'Allow more than 1000 requests against a non-loopback target (passed to every shard)',
      }) as unknown as Argv<K8sArgs>,
  handler: (a) => {
    k8sCommand('run', a);
  },
};

const planModule: CommandModule<object, K8sArgs> = {
  command: 'plan <scenario>',
  describe: 'Manifests of a sharded plan sweep: pod I runs the grid points p with p mod N = I on the embedded simulator',
  builder: (y) =>
    priceOptions(sweepOptions(commonOptions(y))).option('jobs', {
      type: 'number',
      describe: "Threads in each pod (default: the pod's core count)",
    }) as unknown as Argv<K8sArgs>,
  handler: (a) => {
    k8sCommand('plan', a);
  },
};

export const k8sCommandModule: CommandModule = {
  ...COMMANDS.k8s,
  builder: (y) =>
    y
      .command(runModule)
      .command(planModule)
      .demandCommand(1, 'k8s: name a command: k8s run or k8s plan (see loadlab k8s --help)')
      .epilog(
        'Writes shards.yaml (ConfigMap and Indexed Job) and merge.yaml (the merge Job), applied in that order with kubectl; docs/kubernetes.md explains them. Exit 2 for a bad flag or scenario (nothing is written).',
      ),
  handler: () => {},
};
