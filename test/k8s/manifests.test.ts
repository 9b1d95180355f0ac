/**
 * `loadlab k8s run|plan` writes manifests that the Kubernetes OpenAPI schema accepts, for PVC and
 * S3 storage, runs and plans, with and without a namespace; the Indexed Job has N pods each
 * running the contract's shard command line, the merge Job joins exactly shard-0 … shard-(N-1),
 * and the scenario reaches the pods byte for byte (replay traces beside it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { inAnHour, k8sBatch, type K8sOutput, webhookRunArgs } from './k8s-cli.js';
import { schemaProblems } from './validate-manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-k8s-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let outs = 0;
const out = () => join(dir, `out-${outs++}`);

const TARGET = 'https://api.example.com/v2';
const startAt = inAnHour();

const WEBHOOKS = [...webhookRunArgs(TARGET, startAt), '--webhook-port', '8099', '--health-every', '1s'];

const CASES: Array<[string, string[]]> = [
  ['run with webhooks to each pod and --health-every', WEBHOOKS],
  [
    'run, PVC',
    [
      'run',
      'scenarios/ci-gate.yaml',
      '--parallelism',
      '4',
      '--image',
      'registry.example.com/loadlab:0.1.0',
      '--storage',
      'pvc:loadlab-results',
      '--target',
      TARGET,
      '--start-at',
      startAt,
      '--api-key-secret',
      'runpod',
    ],
  ],
  [
    'run, S3 with endpoint, namespace',
    [
      'run',
      'scenarios/ci-gate.yaml',
      '--parallelism',
      '3',
      '--image',
      'loadlab:dev',
      '--storage',
      's3://load-results/team/a',
      '--s3-secret',
      's3-creds',
      '--s3-endpoint',
      'http://minio.storage:9000',
      '--namespace',
      'load',
      '--target',
      TARGET,
      '--start-at',
      startAt,
    ],
  ],
  [
    'plan, PVC, namespace',
    [
      'plan',
      'scenarios/capacity-plan.yaml',
      '--parallelism',
      '5',
      '--image',
      'loadlab:dev',
      '--storage',
      'pvc:results',
      '--namespace',
      'plans',
      '--workers-max',
      '1..12',
      '--seeds',
      '2',
      '--cpu',
      '2',
      '--memory',
      '1Gi',
      '--jobs',
      '2',
    ],
  ],
  [
    'plan, S3',
    [
      'plan',
      'scenarios/capacity-plan.yaml',
      '--parallelism',
      '2',
      '--image',
      'loadlab:dev',
      '--storage',
      's3://plans',
      '--s3-secret',
      'creds',
      '--s3-region',
      'eu-west-1',
    ],
  ],
];

// The files two command lines read, written before any runs.
const sdir = join(dir, 'with-trace');
mkdirSync(join(sdir, 'traces'), { recursive: true });
// Trailing spaces, a tab, CRLF, a non-ASCII character, no final newline: all must survive.
const TRACED =
  '{"name": "traced",  \r\n\t"durationMs": 4000, "endpoint": {"id": "ep"},\r\n "traffic": [{"name": "r", "arrival": {"process": "replay", "file": "traces/t.csv"}, "client": {"behaviour": "health"}}],\n "seed": 3}  ';
writeFileSync(join(sdir, 'sc.json'), TRACED);
const TRACE = Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n0\n500\n1500\n')]);
writeFileSync(join(sdir, 'traces', 't.csv'), TRACE);
const oddName = join(dir, 'odd-name.json');
writeFileSync(
  oddName,
  JSON.stringify({
    name: 'My_Big.Scenario--with-a-very-long-name-x-goes-on',
    durationMs: 1000,
    endpoint: { id: 'ep' },
    traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'health' } }],
  }),
);

/** Every `loadlab k8s` command line of this file but CASES', by name. */
const LINES = {
  runContract: [
    'run',
    'scenarios/ci-gate.yaml',
    '--parallelism',
    '3',
    '--image',
    'img',
    '--storage',
    'pvc:res',
    '--target',
    TARGET,
    '--start-at',
    startAt,
    '--seed',
    '9',
    '--yes',
  ],
  planContract: [
    'plan',
    'scenarios/capacity-plan.yaml',
    '--parallelism',
    '2',
    '--image',
    'img',
    '--storage',
    'pvc:res',
    '--name',
    'sweep',
    '--slo',
    'turnaround_p95_ms < 30000',
    '--grid',
    'idleTimeoutMs=1000,5000',
    '--exhaustive',
  ],
  s3: [
    'run',
    'scenarios/ci-gate.yaml',
    '--parallelism',
    '2',
    '--image',
    'img',
    '--storage',
    's3://bkt/pre/fix/',
    '--s3-secret',
    'creds',
    '--target',
    TARGET,
    '--start-at',
    startAt,
  ],
  prices: [
    'plan',
    'scenarios/capacity-plan.yaml',
    '--parallelism',
    '2',
    '--image',
    'img',
    '--storage',
    'pvc:res',
    '--name',
    'priced',
    '--gpu',
    'A100',
    '--price-flex',
    '0.0004',
  ],
  resources: ['plan', 'scenarios/capacity-plan.yaml', '--parallelism', '3', '--image', 'img', '--storage', 'pvc:r', '--cpu', '1500m', '--memory', '512Mi'],
  plain: ['plan', 'scenarios/capacity-plan.yaml', '--parallelism', '3', '--image', 'img', '--storage', 'pvc:r'],
  traced: ['run', join(sdir, 'sc.json'), '--parallelism', '2', '--image', 'img', '--storage', 'pvc:r', '--target', TARGET, '--start-at', startAt],
  yaml: ['plan', 'scenarios/capacity-plan.yaml', '--parallelism', '2', '--image', 'img', '--storage', 'pvc:r'],
  webhooks: WEBHOOKS,
  webhookUrl: [...WEBHOOKS, '--webhook-url', 'https://hooks-$(JOB_COMPLETION_INDEX).example.com/in'],
  oddName: ['run', oddName, '--parallelism', '2', '--image', 'img', '--storage', 'pvc:r', '--target', TARGET, '--start-at', startAt],
} satisfies Record<string, string[]>;

// CASES then LINES, all in one child process (test/helpers/cli-batch.ts), when a test first asks.
let ran: K8sOutput[] | undefined;
const all = () => (ran ??= k8sBatch([...CASES.map(([, args]) => args), ...Object.values(LINES)].map((args) => ({ args, out: out() }))));
const k8s = (name: keyof typeof LINES): K8sOutput => all()[CASES.length + Object.keys(LINES).indexOf(name)]!;

describe.each(CASES.map(([name, args], i) => [name, args, i] as const))('%s', (_name, args, i) => {
  const get = () => all()[i]!;

  test('exits 0 and writes a ConfigMap, an Indexed Job and a merge Job the schema accepts', () => {
    const { status, stderr, configMap, shardsJob, mergeJob } = get();
    expect(status, stderr).toBe(0);
    expect([configMap.kind, shardsJob.kind, mergeJob.kind]).toEqual(['ConfigMap', 'Job', 'Job']);
    for (const o of [configMap, shardsJob, mergeJob]) expect(schemaProblems(o), o.metadata.name).toEqual([]);
  });

  test('the Indexed Job: completionMode Indexed, completions = parallelism = N, LOADLAB_SHARDS = N', () => {
    const n = Number(args[args.indexOf('--parallelism') + 1]);
    const spec = get().shardsJob.spec;
    expect(spec).toMatchObject({ completionMode: 'Indexed', completions: n, parallelism: n });
    const loadlab = [...(spec.template.spec.initContainers ?? []), ...spec.template.spec.containers].find((c: any) => c.name === 'loadlab');
    expect(loadlab.env).toContainEqual({ name: 'LOADLAB_SHARDS', value: String(n) });
    expect(loadlab.env.find((e: any) => e.name === 'JOB_COMPLETION_INDEX').valueFrom.fieldRef.fieldPath).toBe(
      "metadata.annotations['batch.kubernetes.io/job-completion-index']",
    );
  });

  test('every object is in the namespace given, or in none', () => {
    const ns = args.includes('--namespace') ? args[args.indexOf('--namespace') + 1] : undefined;
    for (const o of [get().configMap, get().shardsJob, get().mergeJob]) expect(o.metadata.namespace).toBe(ns);
  });
});

const containersOf = (job: any) => [...(job.spec.template.spec.initContainers ?? []), ...job.spec.template.spec.containers];

describe('pod command lines follow the shard contract', () => {
  test('run: loadlab run SCENARIO --shards N --target URL --start-at ISO … --out /results/<name>/shard-$(JOB_COMPLETION_INDEX); merge joins shard-0..N-1', () => {
    const r = k8s('runContract');
    expect(r.status, r.stderr).toBe(0);
    const shard = containersOf(r.shardsJob).find((c: any) => c.name === 'loadlab');
    expect(shard.args).toEqual([
      'run',
      '/scenario/scenario.yaml',
      '--shards',
      '3',
      '--target',
      TARGET,
      '--start-at',
      startAt,
      '--seed',
      '9',
      '--yes',
      '--out',
      '/results/loadlab-ci-gate/shard-$(JOB_COMPLETION_INDEX)',
    ]);
    const merge = containersOf(r.mergeJob).find((c: any) => c.name === 'merge');
    expect(merge.command).toEqual(['node', '/app/bin/loadlab.js']);
    expect(merge.args).toEqual([
      'merge',
      '/results/loadlab-ci-gate/shard-0',
      '/results/loadlab-ci-gate/shard-1',
      '/results/loadlab-ci-gate/shard-2',
      '--out',
      '/results/loadlab-ci-gate/merged',
    ]);
    expect(r.shardsJob.spec.template.spec.volumes).toContainEqual({ name: 'results', persistentVolumeClaim: { claimName: 'res' } });
    expect(r.shardsJob.spec.backoffLimit).toBe(0);
    // The three steps, in order, with the objects' names.
    expect(r.stdout).toMatch(
      /kubectl apply -f \S+shards\.yaml[^\n]*\n\s+kubectl wait --for=condition=complete --timeout=24h job\/loadlab-ci-gate-shards\n\s+kubectl apply -f \S+merge\.yaml/,
    );
  });

  test('run: --health-every reaches every shard (shard 0 reads /health for all); --webhook-port: each pod listens on it and gives the endpoint its own IP, from the downward API', () => {
    const r = k8s('webhooks');
    expect(r.status, r.stderr).toBe(0);
    const shard = containersOf(r.shardsJob).find((c: any) => c.name === 'loadlab');
    const flag = (f: string) => shard.args[shard.args.indexOf(f) + 1];
    expect(flag('--health-every')).toBe('1s');
    expect(flag('--webhook-listen')).toBe('0.0.0.0:8099');
    expect(flag('--webhook-url')).toBe('http://$(POD_IP):8099');
    expect(shard.env).toContainEqual({ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } });
    // A URL per pod instead: as given, Kubernetes expands the index; no pod IP needed.
    const u = k8s('webhookUrl');
    expect(u.status, u.stderr).toBe(0);
    const byUrl = containersOf(u.shardsJob).find((c: any) => c.name === 'loadlab');
    expect(byUrl.args[byUrl.args.indexOf('--webhook-url') + 1]).toBe('https://hooks-$(JOB_COMPLETION_INDEX).example.com/in');
    expect(byUrl.args[byUrl.args.indexOf('--webhook-listen') + 1]).toBe('0.0.0.0:8099');
    expect(byUrl.env.map((e: any) => e.name)).not.toContain('POD_IP');
    // No webhook flow, no webhook flags.
    expect(
      containersOf(k8s('runContract').shardsJob)
        .find((c: any) => c.name === 'loadlab')
        .args.join(' '),
    ).not.toMatch(/webhook|health-every/);
  });

  test('plan: loadlab plan SCENARIO --shards N [plan flags] --out …; merge with loadlab plan merge', () => {
    const r = k8s('planContract');
    expect(r.status, r.stderr).toBe(0);
    const shard = containersOf(r.shardsJob).find((c: any) => c.name === 'loadlab');
    expect(shard.args).toEqual([
      'plan',
      '/scenario/scenario.yaml',
      '--shards',
      '2',
      '--slo',
      'turnaround_p95_ms < 30000',
      '--grid',
      'idleTimeoutMs=1000,5000',
      '--exhaustive',
      '--out',
      '/results/sweep/shard-$(JOB_COMPLETION_INDEX)',
    ]);
    expect(containersOf(r.mergeJob).find((c: any) => c.name === 'merge').args).toEqual([
      'plan',
      'merge',
      '/results/sweep/shard-0',
      '/results/sweep/shard-1',
      '--out',
      '/results/sweep/merged',
    ]);
    expect([r.configMap.metadata.name, r.shardsJob.metadata.name, r.mergeJob.metadata.name]).toEqual(['sweep-scenario', 'sweep-shards', 'sweep-merge']);
  });

  test("plan: --gpu and --price-flex/--price-active reach every shard's loadlab plan", () => {
    const r = k8s('prices');
    expect(r.status, r.stderr).toBe(0);
    const shard = containersOf(r.shardsJob).find((c: any) => c.name === 'loadlab');
    expect(shard.args).toEqual([
      'plan',
      '/scenario/scenario.yaml',
      '--shards',
      '2',
      '--gpu',
      'A100',
      '--price-flex',
      '0.0004',
      '--out',
      '/results/priced/shard-$(JOB_COMPLETION_INDEX)',
    ]);
  });

  test('S3: loadlab writes to an emptyDir in an init container, the AWS CLI uploads the shard, and the merge Job downloads, merges and uploads', () => {
    const r = k8s('s3');
    expect(r.status, r.stderr).toBe(0);
    const pod = r.shardsJob.spec.template.spec;
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['loadlab']);
    expect(pod.containers.map((c: any) => c.name)).toEqual(['upload']);
    expect(pod.containers[0].args).toEqual([
      '/results/loadlab-ci-gate/shard-$(JOB_COMPLETION_INDEX)',
      's3://bkt/pre/fix/loadlab-ci-gate/shard-$(JOB_COMPLETION_INDEX)',
    ]);
    expect(pod.volumes).toContainEqual({ name: 'results', emptyDir: {} });
    const m = r.mergeJob.spec.template.spec;
    expect([...m.initContainers, ...m.containers].map((c: any) => c.name)).toEqual(['download', 'merge', 'upload']);
    expect(m.containers[0].args.slice(0, 2)).toEqual(['/results/loadlab-ci-gate/merged', 's3://bkt/pre/fix/loadlab-ci-gate/merged']);
    for (const c of [...pod.containers, ...m.initContainers.filter((x: any) => x.name !== 'merge'), ...m.containers]) {
      expect(c.env).toContainEqual({ name: 'AWS_SECRET_ACCESS_KEY', valueFrom: { secretKeyRef: { name: 'creds', key: 'AWS_SECRET_ACCESS_KEY' } } });
    }
    // One user throughout: the merge (loadlab) writes merged/ into the folder the download (AWS CLI) made.
    for (const c of [...pod.initContainers, ...pod.containers, ...m.initContainers, ...m.containers])
      expect(c.securityContext, c.name).toMatchObject({ runAsUser: 1000, runAsGroup: 1000, runAsNonRoot: true });
  });
});

describe('scheduling', () => {
  test('shard pods request --cpu and --memory, and spread over nodes where they can (never refused for it)', () => {
    const r = k8s('resources');
    expect(r.status, r.stderr).toBe(0);
    const pod = r.shardsJob.spec.template.spec;
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '1500m', memory: '512Mi' } });
    expect(pod.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: r.shardsJob.spec.template.metadata.labels },
      },
    ]);
    const plain = k8s('plain');
    expect(plain.shardsJob.spec.template.spec.containers[0].resources).toBeUndefined();
  });
});

describe('the scenario ConfigMap', () => {
  test('holds the scenario and its replay trace byte for byte, mounted at their relative paths (non-UTF-8 bytes under binaryData)', () => {
    const r = k8s('traced');
    expect(r.status, r.stderr).toBe(0);
    expect(r.configMap.data['scenario.json']).toBe(TRACED);
    expect(Buffer.from(r.configMap.binaryData['trace-0'], 'base64').equals(TRACE)).toBe(true);
    const vol = r.shardsJob.spec.template.spec.volumes.find((v: any) => v.name === 'scenario');
    expect(vol.configMap).toEqual({
      name: 'loadlab-traced-scenario',
      items: [
        { key: 'scenario.json', path: 'scenario.json' },
        { key: 'trace-0', path: 'traces/t.csv' },
      ],
    });
    expect(containersOf(r.shardsJob).find((c: any) => c.name === 'loadlab').args[1]).toBe('/scenario/scenario.json');
  });

  test('a YAML scenario with comments is carried unchanged', () => {
    const r = k8s('yaml');
    expect(r.status, r.stderr).toBe(0);
    expect(r.configMap.data['scenario.yaml']).toBe(readFileSync('scenarios/capacity-plan.yaml', 'utf8'));
  });
});

test('a scenario name that is no Kubernetes name is folded into one (lower case, "-", at most 48 characters) that the schema accepts', () => {
  const r = k8s('oddName');
  expect(r.status, r.stderr).toBe(0);
  expect(r.shardsJob.metadata.name).toBe('loadlab-my-big-scenario-with-a-very-long-name-x-shards');
  for (const o of [r.configMap, r.shardsJob, r.mergeJob]) expect(schemaProblems(o)).toEqual([]);
});

test('the schema check is not vacuous: a Job with a wrong type or a missing field is refused', () => {
  const r = k8s('yaml');
  expect(r.status, r.stderr).toBe(0);
  const broken = structuredClone(r.shardsJob);
  broken.spec.completions = 'two';
  expect(schemaProblems(broken).join()).toMatch(/completions/);
  const noTemplate = structuredClone(r.shardsJob);
  delete noTemplate.spec.template;
  expect(schemaProblems(noTemplate).join()).toMatch(/template/);
});
