/**
 * Cold-start samples from what a run saw: the `delayTime` of each worker's first job, when that
 * job found the endpoint with no ready worker, none starting and nothing queued (the last
 * `/health` answer before its submission): the worker started for it, and the job's wait is the
 * worker's start. Without `/health` answers every worker's first job counts, which also takes in
 * queueing behind busy workers and the scaler's reaction time.
 */
import type { ObservedEndpoint } from '../report/run-result.js';
import { stateAt, type HealthRow } from './health-rows.js';

export interface ColdStartSamples {
  samplesMs: number[];
  /** Workers whose first job was seen. */
  workersSeen: number;
  /** Whether `/health` answers picked the samples (else every first job counted). */
  fromHealth: boolean;
}

export function coldStartSamples(obs: ObservedEndpoint, rows: readonly HealthRow[]): ColdStartSamples {
  const c = (name: string): number => obs.workers.columns.indexOf(name);
  const start = c('firstStartMs');
  const delay = c('firstDelayMs');
  const firsts = obs.workers.rows.map((r) => ({ startMs: r[start]!, delayMs: r[delay]! }));
  if (rows.length === 0) return { samplesMs: firsts.map((f) => Math.round(f.delayMs)), workersSeen: firsts.length, fromHealth: false };
  const samplesMs: number[] = [];
  for (const f of firsts) {
    const s = stateAt(rows, f.startMs - f.delayMs);
    if (s && s.idle === 0 && s.initializing === 0 && s.inQueue === 0) samplesMs.push(Math.round(f.delayMs));
  }
  return { samplesMs, workersSeen: firsts.length, fromHealth: true };
}
