/**
 * Runs shell blocks in order in one bash process, as a user pasting them into one terminal would:
 * variables and background jobs (a `loadlab serve … &`) carry over from block to block. Each
 * block's stdout and stderr go to their own files; an ERR trap records every command that exits
 * non-zero, with its block. `npx` is a shim on PATH that runs only `npx loadlab` (as
 * `node <repo>/bin/loadlab.js`). The whole session is killed, background jobs included, after
 * `capMs`; on exit the shell kills the background jobs still running.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BlockRun {
  stdout: string;
  stderr: string;
  /** `exit N: command` for each command of the block that failed. */
  failures: string[];
  /** False when the session ended (cap or crash) before the block finished. */
  finished: boolean;
  /** Wall ms from the start of the session to the end of the block. */
  endedAtMs: number | undefined;
}

export interface Session {
  blocks: BlockRun[];
  timedOut: boolean;
}

export async function runShellSession(blocks: readonly string[], opts: { cwd: string; repo: string; capMs: number }): Promise<Session> {
  const out = join(opts.cwd, '.readme-test');
  const bin = join(out, 'bin');
  mkdirSync(bin, { recursive: true });
  const npx = join(bin, 'npx');
  writeFileSync(
    npx,
    [
      '#!/bin/sh',
      `if [ "$1" = loadlab ]; then shift; exec node ${JSON.stringify(join(opts.repo, 'bin', 'loadlab.js'))} "$@"; fi`,
      'echo "readme test: only npx loadlab is available" >&2; exit 127',
      '',
    ].join('\n'),
  );
  chmodSync(npx, 0o755);
  const script = [
    `READMETEST_OUT=${JSON.stringify(out)}`,
    `trap 'rc=$?; printf "exit %s: %s\\n" "$rc" "$BASH_COMMAND" >> "$READMETEST_OUT/$READMETEST_BLOCK.fail"' ERR`,
    `trap 'trap - ERR; kill $(jobs -p) 2>/dev/null' EXIT`,
    ...blocks.flatMap((code, n) => [
      `READMETEST_BLOCK=${n}`,
      `{\n${code}\n} > "$READMETEST_OUT/${n}.out" 2> "$READMETEST_OUT/${n}.err"`,
      `date +%s%3N > "$READMETEST_OUT/${n}.done"`,
    ]),
    '',
  ].join('\n');
  writeFileSync(join(out, 'session.sh'), script);
  const sh = spawn('bash', [join(out, 'session.sh')], {
    cwd: opts.cwd,
    detached: true, // its own process group: the cap kills background servers too
    stdio: 'ignore',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  });
  const startedAt = Date.now();
  let timedOut = false;
  await new Promise<void>((resolve) => {
    const cap = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(sh.pid ?? 0), 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, opts.capMs);
    sh.on('exit', () => {
      clearTimeout(cap);
      resolve();
    });
  });
  const read = (f: string) => (existsSync(join(out, f)) ? readFileSync(join(out, f), 'utf8') : '');
  return {
    timedOut,
    blocks: blocks.map((_, n) => ({
      stdout: read(`${n}.out`),
      stderr: read(`${n}.err`),
      failures: read(`${n}.fail`)
        .split('\n')
        .filter((l) => l !== ''),
      finished: existsSync(join(out, `${n}.done`)),
      endedAtMs: existsSync(join(out, `${n}.done`)) ? Number(read(`${n}.done`).trim()) - startedAt : undefined,
    })),
  };
}
