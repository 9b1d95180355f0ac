/**
 * What Linux's /proc says of a launcher's child (bin/loadlab.js starts a simulating command again
 * in a child Node, cli/young-generation.ts): its pid once it catches a signal, which the run does
 * once it is under way (cli/interrupt.ts), so a signal sent then stops a run rather than Node.
 */
import { readFileSync } from 'node:fs';

const BIT = { SIGINT: 2, SIGTERM: 15 } as const;

export function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The first child of `parentPid` once it catches `signal`; undefined before. */
export function runUnderWay(parentPid: number, signal: keyof typeof BIT): number | undefined {
  const kid = Number(readIfThere(`/proc/${parentPid}/task/${parentPid}/children`).trim().split(' ')[0]);
  if (!kid) return undefined;
  const caught = /SigCgt:\s*([0-9a-f]+)/.exec(readIfThere(`/proc/${kid}/status`))?.[1];
  return caught !== undefined && (BigInt(`0x${caught}`) & (1n << BigInt(BIT[signal] - 1))) !== 0n ? kid : undefined;
}

/** Gone, or a zombie waiting for init to reap it. */
export const ended = (pid: number): boolean => /^State:\s+Z/m.test(readIfThere(`/proc/${pid}/status`) || 'State: Z');
