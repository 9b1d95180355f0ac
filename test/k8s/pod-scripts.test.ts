/**
 * The `sh -c` scripts the generated containers run, executed by /bin/sh with stand-ins for `node`
 * and `aws` on PATH (each records its arguments and exits with a chosen code): a shard's own exit
 * 99 ends its pod successfully, other failures fail it; arguments reach loadlab unsplit; the
 * merge's exit code survives the S3 upload.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KEEP_EXIT_SCRIPT, LOADLAB_JS, SHARD_SCRIPT, UPLOAD_SCRIPT } from '../../src/k8s/pod-commands.js';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-k8s-sh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(dir, 'bin');
mkdirSync(bin);
// Each stand-in appends its arguments, one per line, to $CALLS and exits with $CODE.
for (const tool of ['node', 'aws']) {
  writeFileSync(join(bin, tool), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> "$CALLS"; done\nprintf -- '--\\n' >> "$CALLS"\nexit "\${CODE:-0}"\n`);
  chmodSync(join(bin, tool), 0o755);
}
let n = 0;

/** Runs `script` as the container does: `sh -c SCRIPT NAME ARGS…`. */
function sh(script: string, args: string[], env: Record<string, string> = {}) {
  const calls = join(dir, `calls-${n++}`);
  const r = spawnSync('/bin/sh', ['-c', script, 'loadlab', ...args], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin`, CALLS: calls, ...env } });
  return { status: r.status, stderr: r.stderr, calls: existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : [] };
}

describe('a shard', () => {
  const args = ['run', '/scenario/scenario.yaml', '--shards', '4', '--slo', 'a < 1 and  b', '--out', '/results/x/shard-2'];

  test("runs node on the image's CLI with its arguments unsplit and exits 0 on success", () => {
    const r = sh(SHARD_SCRIPT, args);
    expect(r.status).toBe(0);
    expect(r.calls).toEqual([LOADLAB_JS, ...args, '--']);
  });

  test('exit 99 (its slice alone missed a threshold) ends the pod successfully, saying why', () => {
    const r = sh(SHARD_SCRIPT, args, { CODE: '99' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/exit 99 from this shard alone; the merge Job judges the merged result/);
  });

  test.each([1, 2, 130])('exit %i fails the pod with that code', (code) => {
    expect(sh(SHARD_SCRIPT, args, { CODE: String(code) }).status).toBe(code);
  });
});

describe('a merge before an S3 upload, then the upload', () => {
  test.each([0, 2, 99])("the merge's exit %i is kept, and the upload container ends with it after copying merged/", (code) => {
    const exitFile = join(dir, `exit-${code}`);
    const merged = join(dir, `merged-${code}`);
    mkdirSync(merged);
    const m = sh(KEEP_EXIT_SCRIPT, ['merge', 'a', 'b', '--out', merged], { CODE: String(code), LOADLAB_EXIT_FILE: exitFile });
    expect(m.status).toBe(0);
    expect(readFileSync(exitFile, 'utf8').trim()).toBe(String(code));
    const u = sh(UPLOAD_SCRIPT, [merged, 's3://b/p/merged', exitFile]);
    expect(u.status).toBe(code);
    expect(u.calls).toEqual(['s3', 'cp', '--recursive', '--only-show-errors', merged, 's3://b/p/merged', '--']);
  });

  test('a failed upload fails the pod whatever the merge said', () => {
    const merged = join(dir, 'merged-up');
    mkdirSync(merged);
    writeFileSync(join(dir, 'exit-up'), '0\n');
    expect(sh(UPLOAD_SCRIPT, [merged, 's3://b/p/merged', join(dir, 'exit-up')], { CODE: '1' }).status).toBe(1);
  });

  test('a shard upload with no shard directory fails instead of uploading nothing', () => {
    const r = sh(UPLOAD_SCRIPT, [join(dir, 'no-such-shard'), 's3://b/p/shard-0']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no-such-shard does not exist/);
    expect(r.calls).toEqual([]);
  });
});
