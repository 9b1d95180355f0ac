/**
 * The runner's live metrics for one run: a per-run Registry (telemetry/live-run-registry.ts)
 * that reads the run's recorder at each scrape. Hand `onStart` to runScenario (RunOptions.onStart)
 * and call `ended()` once it returns. Before the run starts a scrape shows only the process
 * metrics. Labels never hold the target's URL or key: `target` is the target's kind.
 */
import type { Registry } from 'prom-client';
import { liveRunRegistry, type LiveSnapshot } from '../../telemetry/live-run-registry.js';
import type { RunHandle } from '../run-scenario.js';
import type { Scenario } from '../scenario/schema.js';
import { readLiveRun, type LiveRunState } from './read-recorder.js';

const NOTHING: LiveSnapshot = { counters: {}, gauges: {}, histograms: {}, summaries: {} };

export class LiveRunMetrics {
  readonly registry: Registry;
  private state: LiveRunState | undefined;

  /** `now`: the wall clock in Unix ms (tests may pin it). */
  constructor(
    private readonly sc: Scenario,
    private readonly now: () => number = Date.now,
  ) {
    this.registry = liveRunRegistry({ endpoint: sc.endpoint.id, scenario: sc.name }, () => (this.state ? readLiveRun(this.state) : NOTHING));
  }

  /** RunOptions.onStart: the run's start instant is now. */
  readonly onStart = (run: RunHandle): void => {
    this.state = { run, sc: this.sc, startWallMs: this.now(), endWallMs: undefined };
  };

  /** The run has ended (its end time shows from the next scrape; the totals are final). */
  ended(): void {
    if (this.state && this.state.endWallMs === undefined) this.state.endWallMs = this.now();
  }

  get hasEnded(): boolean {
    return this.state?.endWallMs !== undefined;
  }
}
