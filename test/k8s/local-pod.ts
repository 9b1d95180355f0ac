/**
 * Runs the containers of generated manifests as local processes, as a kubelet would start them:
 * the ConfigMap's files written where the volume would mount them, `$(JOB_COMPLETION_INDEX)`
 * expanded, env from `value`, the index annotation or a Secret (given here by name and key), and
 * the image's paths (/app/bin/loadlab.js, /scenario, /results) mapped onto this checkout and a
 * temp directory. Only the loadlab containers (PVC storage): the AWS CLI is not run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const CLI = resolve('bin/loadlab.js');

export interface Ran {
  status: number | null;
  output: string;
}

/** Writes the ConfigMap's files as the pod's `scenario` volume holds them; returns that directory. */
export function mountConfigMap(configMap: any, job: any, root: string): string {
  const dir = join(root, 'scenario');
  const items = job.spec.template.spec.volumes.find((v: any) => v.name === 'scenario').configMap.items;
  for (const it of items) {
    const p = join(dir, it.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, configMap.data?.[it.key] ?? Buffer.from(configMap.binaryData[it.key], 'base64'));
  }
  return dir;
}

/** Starts `container` as pod `index`; `secrets` maps `name/key` to a value. */
export function runContainer(container: any, index: number, root: string, secrets: Record<string, string> = {}): Promise<Ran> {
  const map = (s: string) =>
    s
      .replaceAll('$(JOB_COMPLETION_INDEX)', String(index))
      .replaceAll('/app/bin/loadlab.js', CLI)
      .replace(/^\/(results|scenario)\//, `${root}/$1/`);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', CI: 'true' };
  for (const e of container.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    const fieldIndex = e.valueFrom?.fieldRef?.fieldPath === "metadata.annotations['batch.kubernetes.io/job-completion-index']";
    const v = e.value ?? (fieldIndex ? String(index) : ref ? secrets[`${ref.name}/${ref.key}`] : undefined);
    if (v === undefined) throw new Error(`${container.name}: no value for env ${e.name}`);
    env[e.name] = v;
  }
  const [cmd, ...rest] = (container.command as string[]).map(map);
  const child = spawn(cmd!, [...rest, ...(container.args as string[]).map(map)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
  return new Promise((ok) => child.on('close', (status) => ok({ status, output })));
}
