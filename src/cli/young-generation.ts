/**
 * A larger young generation for the commands that simulate: `run` on the embedded simulator and
 * `plan`. Every job, request and answer of a simulated run is a handful of short-lived objects, and
 * with Node's default young generation (16 MB semi-spaces) the garbage collector copies the jobs in
 * flight over and over: a quarter of a simulated hour's CPU went to it. With 32 MB semi-spaces
 * fewer of them are still alive at each collection, and the collections cost a quarter as much. V8 fixes that size when the process starts, so the launcher (bin/loadlab.js)
 * starts the command again in a child process with the flag, unless the Node options already set
 * one (`NODE_OPTIONS=--max-semi-space-size=16` keeps Node's default and one process).
 */
import { spawn } from 'node:child_process';

/** Semi-space size in MB given to a simulating command. */
export const SEMI_SPACE_MB = 32;
const FLAG = '--max-semi-space-size';
/** Signals passed on to the child (a child in its own session gets none from the terminal). */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Set in the child's environment: the launcher's pid. */
const PARENT_ENV = 'LOADLAB_LAUNCHER_PID';

/** Does the command on `argv` simulate (run without --target, plan)? */
export function simulates(argv: readonly string[]): boolean {
  const command = argv.find((a) => !a.startsWith('-'));
  if (command === 'plan') return true;
  if (command !== 'run') return false;
  return !argv.some((a) => a === '--target' || a.startsWith('--target=') || a === '--dry-run' || a === '--help' || a === '-h');
}

/** The Node options to start the command with, or undefined when this process will do. */
export function relaunchFlags(argv: readonly string[], execArgv: readonly string[], nodeOptions: string | undefined): string[] | undefined {
  if (!simulates(argv)) return undefined;
  if (execArgv.some((a) => a.startsWith(FLAG)) || (nodeOptions ?? '').includes(FLAG)) return undefined;
  return [...execArgv, `${FLAG}=${SEMI_SPACE_MB}`];
}

/**
 * Runs the command in a child Node with `flags` and resolves with its exit code (128 + n for a
 * signal). The child has its own session, so a terminal's Ctrl-C reaches it once, through this
 * process, as does a signal sent to this process by a script or a test.
 */
export function relaunch(script: string, argv: readonly string[], flags: readonly string[]): Promise<number> {
  const env = { ...process.env, [PARENT_ENV]: String(process.pid) };
  const child = spawn(process.execPath, [...flags, script, ...argv], { stdio: 'inherit', detached: true, env });
  const forward = (s: NodeJS.Signals) => () => child.kill(s);
  const handlers = FORWARDED.map((s) => [s, forward(s)] as const);
  for (const [s, f] of handlers) process.on(s, f);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      for (const [s, f] of handlers) process.off(s, f);
      resolve(code ?? 128 + (signal ? signalNumber(signal) : 0));
    });
  });
}

/**
 * In the child: a parent that died without passing a signal on (SIGKILL) leaves it orphaned;
 * checked every second, that ends the command as a SIGTERM would (the run stops, reports are written).
 */
export function watchParent(env: NodeJS.ProcessEnv = process.env): void {
  const parent = env[PARENT_ENV];
  if (parent === undefined) return;
  delete env[PARENT_ENV];
  const timer = setInterval(() => {
    if (String(process.ppid) === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  timer.unref();
}

function signalNumber(s: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Partial<Record<NodeJS.Signals, number>>)[s] ?? 0;
}
