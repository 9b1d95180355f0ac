/**
 * Runs `loadlab k8s …` (bin/loadlab.js, from dist/) in a child process and reads back what it
 * wrote: shards.yaml and merge.yaml as parsed objects and as text. `k8sBatch` runs several command
 * lines in one child process (test/helpers/cli-batch.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { cliBatch } from '../helpers/cli-batch.js';

export interface K8sOutput {
  status: number | null;
  stdout: string;
  stderr: string;
  /** shards.yaml then merge.yaml, as text (empty when not written). */
  text: string;
  configMap: any;
  shardsJob: any;
  mergeJob: any;
}

export function k8s(args: string[], out: string, env: Record<string, string> = {}): K8sOutput {
  const r = spawnSync('node', ['bin/loadlab.js', 'k8s', ...args, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', ...env },
    timeout: 60_000,
  });
  return output(r, out);
}

/** `k8s(args, out)` for each case, all in one child process, in order. */
export function k8sBatch(cases: readonly { args: string[]; out: string }[]): K8sOutput[] {
  const rs = cliBatch(cases.map((c) => ({ args: ['k8s', ...c.args, '--out', c.out] })));
  return rs.map((r, i) => output(r, cases[i]!.out));
}

function output(r: { status: number | null; stdout: string; stderr: string }, out: string): K8sOutput {
  const read = (f: string) => (existsSync(join(out, f)) ? readFileSync(join(out, f), 'utf8') : '');
  const shards = read('shards.yaml');
  const merge = read('merge.yaml');
  const docs = [...parseAllDocuments(shards), ...parseAllDocuments(merge)].map((d) => d.toJS());
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, text: shards + merge, configMap: docs[0], shardsJob: docs[1], mergeJob: docs[2] };
}

/** An ISO instant an hour from now: a valid --start-at for the length of a test run. */
export function inAnHour(): string {
  return new Date(Math.ceil(Date.now() / 1000) * 1000 + 3600_000).toISOString();
}

/** `k8s run` of the webhook-failing scenario (run-webhook flows) on two pods, before its webhook flags. */
export function webhookRunArgs(target: string, startAt: string): string[] {
  return ['run', 'scenarios/webhook-failing.yaml', '--parallelism', '2', '--image', 'img', '--storage', 'pvc:r', '--target', target, '--start-at', startAt];
}
