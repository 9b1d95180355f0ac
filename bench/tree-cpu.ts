/**
 * Runs a command and measures the CPU (user + sys) of its whole process tree, for the load tools
 * of generator-vs-peers.ts. The command runs under `sh`, which waits for it and then reads its own
 * `/proc/<pid>/stat`: the children's times there (cutime + cstime) hold the command and every
 * descendant it waited for (threads included), in clock ticks (`getconf CLK_TCK`, 100 on Linux:
 * 10 ms resolution, ~1 % of a 10 s run at 1 000 requests/s).
 */
import { spawn } from 'node:child_process';

const TICKS_PER_SECOND = 100;

export interface TreeRun {
  exitCode: number;
  /** CPU of the command's process tree (ms). */
  cpuMs: number;
  /** Wall time from spawn to exit (ms). */
  wallMs: number;
  stdout: string;
  stderr: string;
}

/** Fields 14-17 of /proc/<pid>/stat (utime stime cutime cstime), after the `comm` in parens. */
function childTicks(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state): field k is f[k - 3].
  return Number(f[16 - 3]) + Number(f[17 - 3]);
}

export function runMeasured(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<TreeRun> {
  // The stat goes to fd 3 so the command's own output is left alone; `read` is a builtin (no child).
  const script = '"$@"; s=$?; read -r st < /proc/$$/stat; echo "$st" >&3; exit $s';
  const t0 = performance.now();
  const child = spawn('sh', ['-c', script, 'sh', cmd, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let stat = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c) => (stat += c));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (!stat) return reject(new Error(`${cmd}: no CPU figure (exit ${code}): ${stderr.slice(0, 300)}`));
      resolve({ exitCode: code ?? -1, cpuMs: (childTicks(stat) * 1000) / TICKS_PER_SECOND, wallMs: performance.now() - t0, stdout, stderr });
    });
  });
}
