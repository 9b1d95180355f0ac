/**
 * `loadlab k8s` refuses bad input before writing anything: exit 2, a message naming the flag (or
 * the scenario's file and field) and the reason, no stack trace, no file written. Secrets never
 * reach the manifests or the output: a key is only ever a Secret's name.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { inAnHour, k8s, k8sBatch, type K8sOutput, webhookRunArgs } from './k8s-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-k8s-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let outs = 0;
const out = () => join(dir, `out-${outs++}`);

const TARGET = 'https://api.example.com/v2';
const startAt = inAnHour();
const RUN = ['run', 'scenarios/ci-gate.yaml', '--image', 'img', '--storage', 'pvc:r', '--target', TARGET, '--start-at', startAt];
const PLAN = ['plan', 'scenarios/capacity-plan.yaml', '--image', 'img', '--storage', 'pvc:r'];
const without = (args: string[], flag: string) => {
  const i = args.indexOf(flag);
  return [...args.slice(0, i), ...args.slice(i + 2)];
};

const outside = join(dir, 'outside');
mkdirSync(join(outside, 'sc'), { recursive: true });
writeFileSync(join(outside, 'trace.csv'), '0\n100\n');
writeFileSync(
  join(outside, 'sc', 'sc.yaml'),
  'name: outside\ndurationMs: 1000\nendpoint: { id: ep }\ntraffic:\n  - name: r\n    arrival: { process: replay, file: ../trace.csv }\n    client: { behaviour: health }\n',
);

const HOOKS = webhookRunArgs(TARGET, startAt);

const BAD: [name: string, args: string[], message: RegExp][] = [
  ['--health-every often', [...RUN, '--parallelism', '2', '--health-every', 'often'], /--health-every: a duration in whole ms.*got "often"/],
  ['--health-every 50ms', [...RUN, '--parallelism', '2', '--health-every', '50ms'], /--health-every: 0 \(off\) or from 100ms to 1h, got "50ms"/],
  [
    'a run-webhook flow without --webhook-port',
    HOOKS,
    /--webhook-port: required: scenarios\/webhook-failing\.yaml has run-webhook flows, and each shard pod receives its own jobs' webhooks/,
  ],
  ['--webhook-port 0', [...HOOKS, '--webhook-port', '0'], /--webhook-port: a port from 1 to 65535, got 0/],
  [
    '--webhook-url without the index',
    [...HOOKS, '--webhook-port', '8099', '--webhook-url', 'https://hooks.example.com'],
    /--webhook-url: every pod runs its own receiver with its own token, so one URL for all of them reaches one pod at best; put \$\(JOB_COMPLETION_INDEX\) in it/,
  ],
  [
    '--webhook-url with a query',
    [...HOOKS, '--webhook-port', '8099', '--webhook-url', 'https://h-$(JOB_COMPLETION_INDEX).example.com/?a=1'],
    /--webhook-url: no query or fragment/,
  ],
  [
    '--webhook-port without a webhook flow',
    [...RUN, '--parallelism', '2', '--webhook-port', '8099'],
    /--webhook-port: scenarios\/ci-gate\.yaml has no run-webhook flow/,
  ],
  ['no subcommand', [], /k8s: name a command: k8s run or k8s plan/],
  ['--cpu lots', [...RUN, '--parallelism', '2', '--cpu', 'lots'], /--cpu: a Kubernetes quantity such as 2 or 500m, got "lots"/],
  ['--memory 1 GB', [...RUN, '--parallelism', '2', '--memory', '1 GB'], /--memory: a Kubernetes quantity such as 1Gi or 512Mi, got "1 GB"/],
  ['no --parallelism', without([...RUN, '--parallelism', '2'], '--parallelism'), /--parallelism: required/],
  ['--parallelism 0', [...RUN, '--parallelism', '0'], /--parallelism: a whole number from 1 to 1000, got 0/],
  ['--parallelism abc', [...RUN, '--parallelism', 'abc'], /--parallelism: a whole number from 1 to 1000, got something that is not a number/],
  ['--parallelism 2.5', [...RUN, '--parallelism', '2.5'], /--parallelism: a whole number from 1 to 1000, got 2.5/],
  ['no --image', [...without(RUN, '--image'), '--parallelism', '2'], /--image: required/],
  ['no --storage', [...without(RUN, '--storage'), '--parallelism', '2'], /--storage: required: pvc:NAME .* or s3:\/\/BUCKET\/PREFIX/],
  [
    '--storage nfs:x',
    [...without(RUN, '--storage'), '--storage', 'nfs:x', '--parallelism', '2'],
    /--storage: pvc:NAME .* or s3:\/\/BUCKET\/PREFIX, got "nfs:x"/,
  ],
  [
    '--storage pvc:Bad_Name',
    [...without(RUN, '--storage'), '--storage', 'pvc:Bad_Name', '--parallelism', '2'],
    /--storage: pvc:NAME: the claim name "Bad_Name" is not/,
  ],
  ['S3 without --s3-secret', [...without(RUN, '--storage'), '--storage', 's3://bkt/p', '--parallelism', '2'], /--s3-secret: required with --storage s3:/],
  ['--s3-secret with a PVC', [...RUN, '--parallelism', '2', '--s3-secret', 'x'], /--s3-secret: only with --storage s3:/],
  [
    'run without --target',
    [...without(RUN, '--target'), '--parallelism', '2'],
    /--target: required.*one endpoint is one state; shard plan sweeps instead with `loadlab k8s plan`/,
  ],
  ['--target not http', [...without(RUN, '--target'), '--target', 'ftp://h/v2', '--parallelism', '2'], /--target: an http:\/\/ or https:\/\/ URL/],
  [
    '--start-at in the past',
    [...without(RUN, '--start-at'), '--start-at', '2020-01-01T00:00:00Z', '--parallelism', '2'],
    /--start-at: 2020-01-01T00:00:00Z has passed/,
  ],
  [
    '--start-at without a zone',
    [...without(RUN, '--start-at'), '--start-at', '2099-01-01T00:00:00', '--parallelism', '2'],
    /--start-at: an ISO-8601 date-time with a zone/,
  ],
  [
    '--start-at over 24 h ahead',
    [...without(RUN, '--start-at'), '--start-at', '2099-01-01T00:00:00Z', '--parallelism', '2'],
    /--start-at: .* more than 24 h ahead/,
  ],
  ['--start-delay with --start-at', [...RUN, '--start-delay', '60', '--parallelism', '2'], /--start-delay: not with --start-at/],
  ['--start-delay -5', [...without(RUN, '--start-at'), '--start-delay', '-5', '--parallelism', '2'], /--start-delay: whole seconds from 0 to 86400, got -5/],
  ['--name with capitals', [...RUN, '--parallelism', '2', '--name', 'MyRun'], /--name: lower-case letters/],
  ['--name too long', [...RUN, '--parallelism', '2', '--name', 'a'.repeat(49)], /--name: at most 48 characters, got 49/],
  ['--namespace bad', [...RUN, '--parallelism', '2', '--namespace', 'no_such'], /--namespace: a DNS-1123 label/],
  ['--api-key-secret bad', [...RUN, '--parallelism', '2', '--api-key-secret', 'a:b:c'], /--api-key-secret: NAME or NAME:KEY/],
  ['--seed abc', [...RUN, '--parallelism', '2', '--seed', 'abc'], /--seed: an integer/],
  ['plan --workers-max 5..1', [...PLAN, '--parallelism', '2', '--workers-max', '5..1'], /--workers-max: /],
  ['plan --seeds 0', [...PLAN, '--parallelism', '2', '--seeds', '0'], /--seeds: must be a whole number >= 1, got 0/],
  ['plan --gpu unknown', [...PLAN, '--parallelism', '2', '--gpu', 'H9000'], /--gpu: unknown GPU "H9000" in price book 2026; known: .*A100/],
  ['plan --price-book unknown', [...PLAN, '--parallelism', '2', '--gpu', 'A100', '--price-book', '1999'], /--price-book: unknown price book "1999"/],
  [
    'run --price-book (a run against a URL bills no workers)',
    [...RUN, '--parallelism', '2', '--price-book', '2025'],
    /--price-book: only with `loadlab k8s plan`: the shards of a run send to a URL, which shows no workers to bill/,
  ],
  [
    'plan --price-flex negative',
    [...PLAN, '--parallelism', '2', '--price-flex=-1'],
    /--price-flex: must be a price per worker-second in dollars, >= 0, got -1/,
  ],
  [
    'run --gpu (a run against a URL bills no workers)',
    [...RUN, '--parallelism', '2', '--gpu', 'A100'],
    /--gpu: only with `loadlab k8s plan`: the shards of a run send to a URL, which shows no workers to bill/,
  ],
  ['plan --target (a plan runs on the embedded simulator)', [...PLAN, '--parallelism', '2', '--target', TARGET], /Unknown argument: target/],
  ['an invalid scenario', ['plan', 'package.json', '--image', 'img', '--storage', 'pvc:r', '--parallelism', '2'], /invalid scenario .*package\.json/s],
  [
    "a replay trace outside the scenario's folder",
    ['run', join(outside, 'sc', 'sc.yaml'), '--image', 'img', '--storage', 'pvc:r', '--parallelism', '2', '--target', TARGET, '--start-at', startAt],
    /traffic\.0\.arrival\.file: \.\.\/trace\.csv is outside the scenario's folder/,
  ],
];

describe('bad flags: exit 2 naming the flag, nothing written', () => {
  // One child process runs every case (test/helpers/cli-batch.ts); each test checks its own.
  const outs = BAD.map(() => out());
  let ran: K8sOutput[] | undefined;
  const result = (i: number) => (ran ??= k8sBatch(BAD.map(([, args], j) => ({ args, out: outs[j]! }))))[i]!;

  test.each(BAD.map(([name, , message], i) => [name, message, i] as const))('%s', (_name, message, i) => {
    const o = outs[i]!;
    const r = result(i);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(o) ? readdirSync(o) : []).toEqual([]);
  });

  test('a run of over 1000 requests against a remote target needs --yes, which then reaches every shard', () => {
    const big = ['run', 'scenarios/steady-mix.yaml', '--image', 'img', '--storage', 'pvc:r', '--target', TARGET, '--start-at', startAt, '--parallelism', '2'];
    const [refused, ok] = k8sBatch([
      { args: big, out: out() },
      { args: [...big, '--yes'], out: out() },
    ]) as [K8sOutput, K8sOutput];
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/requests to https:\/\/api\.example\.com\/v2 \(from all shards together\); add --yes/);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.shardsJob.spec.template.spec.containers[0].args).toContain('--yes');
  });
});

describe('secrets stay out of manifests and output', () => {
  const KEY = 'rpa_SECRETVALUE1234567890';
  const PASSWORD = 'hunter2-SECRET';

  test('--api-key is refused without echoing it; RUNPOD_API_KEY in the environment is not read; the key reaches the pods only as a secretKeyRef', () => {
    const refused = k8s([...RUN, '--parallelism', '2', '--api-key', KEY], out());
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--api-key: a key is never written into manifests.*--api-key-secret NAME/);
    expect(refused.stdout + refused.stderr).not.toContain(KEY);

    const r = k8s([...RUN, '--parallelism', '2', '--api-key-secret', 'runpod:token'], out(), { RUNPOD_API_KEY: KEY, LOADLAB_API_KEY: KEY });
    expect(r.status, r.stderr).toBe(0);
    expect(r.text + r.stdout + r.stderr).not.toContain(KEY);
    expect(r.shardsJob.spec.template.spec.containers[0].env).toContainEqual({
      name: 'RUNPOD_API_KEY',
      valueFrom: { secretKeyRef: { name: 'runpod', key: 'token' } },
    });
  });

  test.each([
    ['--target', [...without(RUN, '--target'), '--target', `https://user:${PASSWORD}@api.example.com/v2`]],
    ['--s3-endpoint', [...without(RUN, '--storage'), '--storage', 's3://bkt', '--s3-secret', 'c', '--s3-endpoint', `http://minio:${PASSWORD}@minio:9000`]],
  ])('credentials in %s: exit 2, the password shown nowhere', (flag, args) => {
    const o = out();
    const r = k8s([...args, '--parallelism', '2'], o);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${flag}: the URL holds credentials`));
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(existsSync(o)).toBe(false);
  });

  test('S3 credentials are read from the Secret named, in every AWS container, never given a value', () => {
    const o = out();
    const r = k8s([...without(RUN, '--storage'), '--storage', 's3://bkt/x', '--s3-secret', 'store-creds', '--parallelism', '2'], o, {
      AWS_ACCESS_KEY_ID: 'AKIA_SECRET_ID',
      AWS_SECRET_ACCESS_KEY: PASSWORD,
    });
    expect(r.status, r.stderr).toBe(0);
    const all = readFileSync(join(o, 'shards.yaml'), 'utf8') + readFileSync(join(o, 'merge.yaml'), 'utf8') + r.stdout + r.stderr;
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain('AKIA_SECRET_ID');
    const envs = [r.shardsJob, r.mergeJob]
      .flatMap((j) => [...(j.spec.template.spec.initContainers ?? []), ...j.spec.template.spec.containers])
      .flatMap((c: any) => c.env ?? []);
    const keys = envs.filter((x: any) => x.name === 'AWS_ACCESS_KEY_ID' || x.name === 'AWS_SECRET_ACCESS_KEY');
    expect(keys).toHaveLength(2 * 3); // shard upload, merge download, merge upload
    for (const e of keys) {
      expect(e).toEqual({ name: e.name, valueFrom: { secretKeyRef: { name: 'store-creds', key: e.name } } });
    }
  });
});
