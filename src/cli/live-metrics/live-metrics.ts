/**
 * `loadlab run --target URL --metrics-listen HOST:PORT`: the run's live metrics
 * (load/live-metrics/) served on HOST:PORT while it runs. Once the run has ended, the listener
 * stays up until a scrape begun after the end has been answered — so Prometheus sees the final
 * totals and the end time — or FINAL_SCRAPE_WAIT_MS, whichever is first. It does not wait after
 * a run that was interrupted or found the target unreachable, and Ctrl-C (or SIGTERM) ends the
 * wait: the command then exits with its verdict's code as usual.
 */
import type { Writable } from 'node:stream';
import { LiveRunMetrics } from '../../load/live-metrics/live-run-metrics.js';
import type { RunHandle } from '../../load/run-scenario.js';
import type { Scenario } from '../../load/scenario/schema.js';
import { parseListenAddress } from './listen-address.js';
import { listenForMetrics } from './metrics-listener.js';

/** How long a finished run waits for Prometheus's next scrape: a 15 s scrape interval (its default) fits. */
export const FINAL_SCRAPE_WAIT_MS = 15_000;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface LiveMetrics {
  /** For RunOptions.onStart. */
  onStart(run: RunHandle): void;
  /** The run has ended: its end time and final totals show from now on. */
  ended(): void;
  /** Waits for the final scrape (unless `wait` is false), then stops listening. */
  finish(wait: boolean): Promise<void>;
}

/** Listens on `listen` (exit 2 when it cannot) and prints the /metrics URL to `log`. */
export async function startLiveMetrics(sc: Scenario, listen: string, log: Writable): Promise<LiveMetrics> {
  const metrics = new LiveRunMetrics(sc);
  const listener = await listenForMetrics(parseListenAddress(listen), metrics.registry, () => metrics.hasEnded);
  log.write(`loadlab: live metrics at ${listener.url}\n`);
  return {
    onStart: metrics.onStart,
    ended: () => metrics.ended(),
    finish: async (wait) => {
      metrics.ended();
      if (wait) {
        log.write(`loadlab: keeping ${listener.url} up for a final scrape (at most ${FINAL_SCRAPE_WAIT_MS / 1000} s; Ctrl-C ends the wait)\n`);
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        for (const s of SIGNALS) process.once(s, onSignal);
        await listener.finalScrape(FINAL_SCRAPE_WAIT_MS, stop.signal);
        for (const s of SIGNALS) process.off(s, onSignal);
      }
      await listener.close();
    },
  };
}
