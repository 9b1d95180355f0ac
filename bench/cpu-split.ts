/**
 * Where a `loadlab run`'s CPU goes, from a V8 CPU profile (`node --cpu-prof`). A sample taken
 * while the in-process target drives the simulator (under its `drive`) counts by the file of its
 * own function (self time): the simulator (its API included), the drive loop and the target's
 * call into the API, the client behaviours and flows, or what the runner adds (recording,
 * billing, progress, checks). Any other sample is the reports (rendered and written after the
 * run), the garbage collector, or Node's start-up and I/O. Inlined functions count where V8
 * inlined them, so a part is good to a few per cent.
 */
import { readFileSync } from 'node:fs';

export const PARTS = ['simulator', 'drive', 'client', 'runner', 'reports', 'gc', 'node'] as const;
export type Part = (typeof PARTS)[number];

/** Parts of a sample under `drive`, by the file of its function. */
const DRIVEN: readonly [Part, RegExp][] = [
  ['simulator', /\/src\/(sim|api|contract)\/|\/src\/lib\/(scheduler|deque|random)\.js/],
  ['drive', /\/src\/load\/targets\/in-process\/(in-process-target|endpoint-watch)\.js|\/src\/lib\/time-averages\.js/],
  ['client', /\/src\/load\/(behaviours|arrivals)\/|\/src\/load\/(client|flow-driver)\.js/],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Share of the profile's samples in each part (0–1), idle time left out. */
export function cpuSplit(profileFile: string): Record<Part, number> {
  const p = JSON.parse(readFileSync(profileFile, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isDrive = (n: ProfileNode) => n.callFrame.functionName === 'drive' && n.callFrame.url.includes('/in-process-target.js');
  const underDrive = new Map<number, boolean>();
  const driven = (id: number): boolean => {
    const known = underDrive.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const up = parent.get(id);
    const v = isDrive(n) || (up !== undefined && driven(up));
    underDrive.set(id, v);
    return v;
  };
  const partOf = (id: number): Part | undefined => {
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return undefined;
    if (functionName === '(garbage collector)') return 'gc';
    if (driven(id)) return DRIVEN.find(([, re]) => re.test(url))?.[0] ?? 'runner';
    return /\/src\/|hdr-histogram-js|node:zlib/.test(url) ? 'reports' : 'node';
  };
  const t: Record<Part, number> = { simulator: 0, drive: 0, client: 0, runner: 0, reports: 0, gc: 0, node: 0 };
  let total = 0;
  p.samples.forEach((id, i) => {
    const part = partOf(id);
    if (part === undefined) return;
    const d = p.timeDeltas[i] ?? 0;
    t[part] += d;
    total += d;
  });
  for (const k of PARTS) t[k] = total ? t[k] / total : 0;
  return t;
}
