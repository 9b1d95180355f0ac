/**
 * A multi-turn flow's sessions as sessions (RunResult `flows.*.turns`): the turns its sessions
 * started, the turns of each session that ended, and how long each session took that answered
 * all its turns (its first turn's intended send → its last answer, think times included). Each
 * turn is also one request with its own figures (operations, jobs, streams) as any request.
 */
import { encode } from '../../report/histogram.js';
import type { FlowTurnStats } from '../../report/run-result.js';
import { MsHistogram } from './ms-histogram.js';

export class FlowTurns {
  private total = 0;
  private readonly perSession = new MsHistogram();
  private readonly sessionMs = new MsHistogram();

  /** A session started a turn (its request is on its way). */
  started(): void {
    this.total++;
  }

  /** A session ended after `turns` turns; `completedMs`: how long it took, when every turn was answered (else undefined). */
  ended(turns: number, completedMs: number | undefined): void {
    this.perSession.record(turns);
    if (completedMs !== undefined) this.sessionMs.record(completedMs);
  }

  stats(): FlowTurnStats {
    return { total: this.total, perSession: encode(this.perSession.hdr()), sessionMs: encode(this.sessionMs.hdr()) };
  }
}
