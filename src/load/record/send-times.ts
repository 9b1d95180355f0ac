/**
 * Times measured from the actual send instead of the intended one, for the second judgement of
 * a run with late arrivals (report/from-send.ts): per operation, response time per histogram
 * window (its whole-run figure is `serviceMs`, recorded anyway); per flow, turnaround from the
 * session's first send, whole-run and per window. A Recorder keeps one only where a send can be
 * late — over a wall clock, or under `openModel.maxInFlight` — so a run on the embedded simulator
 * without a cap records nothing more.
 */
import { encode } from '../../report/histogram.js';
import type { FlowStats, OperationStats, RunResult } from '../../report/run-result.js';
import type { ThresholdInput } from '../../report/threshold-metrics.js';
import { MsHistogram } from './ms-histogram.js';
import type { OpAcc } from './op-acc.js';
import { WindowHistograms } from './window-histograms.js';
import { Series } from './job-times.js';

export class SendTimes {
  private readonly responses = new Map<OpAcc, WindowHistograms>();
  private readonly turnarounds = new Map<string, Series>();

  constructor(readonly windowMs: number) {}

  /** An answer to a request of `o` came at `endMs`, `ms` after the request went out. */
  answered(o: OpAcc, endMs: number, ms: number): void {
    let w = this.responses.get(o);
    if (!w) this.responses.set(o, (w = new WindowHistograms(this.windowMs)));
    w.record(endMs, ms);
  }

  /** A session of `flow` read a terminal status at `atMs`, `ms` after its first request went out. */
  turnaround(flow: string, atMs: number, ms: number): void {
    let t = this.turnarounds.get(flow);
    if (!t) this.turnarounds.set(flow, (t = new Series(this.windowMs)));
    t.add(atMs, ms);
  }

  /**
   * The finished run's result `r` (windows 0 to `n - 1`) as thresholds read it, with response time
   * and turnaround measured from the actual send. `ops`: the recorder's operations by name.
   */
  view(r: RunResult, ops: ReadonlyMap<string, OpAcc>, n: number): ThresholdInput {
    const empty = () => new Array<string>(n).fill('');
    const operations: Record<string, OperationStats> = {};
    for (const [name, o] of Object.entries(r.operations)) operations[name] = { ...o, responseMs: o.serviceMs };
    const flows: Record<string, FlowStats> = {};
    for (const [name, f] of Object.entries(r.flows)) {
      const t = this.turnarounds.get(name);
      flows[name] = f.jobs ? { ...f, jobs: { ...f.jobs, turnaroundMs: encode((t?.whole ?? new MsHistogram()).hdr()) } } : f;
    }
    const w = r.windows;
    if (!w) return { ...r, operations, flows };
    const responseMs: Record<string, string[]> = {};
    for (const name of Object.keys(w.responseMs)) {
      const acc = ops.get(name);
      responseMs[name] = (acc && this.responses.get(acc)?.result(n)) || empty();
    }
    const windowFlows: typeof w.flows = {};
    for (const [name, f] of Object.entries(w.flows)) windowFlows[name] = { ...f, turnaroundMs: this.turnarounds.get(name)?.windows.result(n) ?? empty() };
    return { ...r, operations, flows, windows: { ...w, responseMs, flows: windowFlows } };
  }
}
