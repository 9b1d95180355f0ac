/**
 * What Linux's /proc says of a launcher's child (bin/loadlab.js starts a simulating command again
 * in a child Node, cli/young-generation.ts). Not whether its run is under way: Node catches SIGINT
 * and SIGTERM from its first instant (to restore the terminal), so /proc's SigCgt shows them long
 * before the run's own handlers (cli/interrupt.ts) are there; only the run's output says that.
 */
import { readFileSync } from 'node:fs';

export function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The first child process of `pid`, if it has one. */
export function firstChild(pid: number): number | undefined {
  return Number(readIfThere(`/proc/${pid}/task/${pid}/children`).trim().split(' ')[0]) || undefined;
}

/** Gone, or a zombie waiting for init to reap it. */
export const ended = (pid: number): boolean => /^State:\s+Z/m.test(readIfThere(`/proc/${pid}/status`) || 'State: Z');
