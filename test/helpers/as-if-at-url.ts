/**
 * The embedded simulator seen as a run against a URL sees an endpoint: the in-process target in
 * virtual time, but reporting kind `http` and showing nothing of the endpoint itself (no
 * watchEndpoint, cold starts or worker bill), so the run reads `/health` (health-sampler.ts) and
 * keeps RunResult.observed for `loadlab calibrate` — as `loadlab run --target URL` against
 * `loadlab serve`, without sockets or wall time, and a seed gives the same bytes.
 */
import type { Scenario } from '../../src/load/scenario/schema.js';
import { inProcessTarget } from '../../src/load/targets/in-process/for-scenario.js';
import type { Target } from '../../src/load/targets/target.js';

export function asIfAtUrl(sc: Scenario, seed: number | string): Target {
  const t = inProcessTarget(sc, seed);
  return {
    kind: 'http',
    endpointId: t.endpointId,
    clock: t.clock,
    reportUrl: 'http://simulator.invalid',
    causesReported: t.causesReported,
    get webhookUrl() {
      return t.webhookUrl;
    },
    receiveWebhooks: (cfg, rng, onDelivery) => t.receiveWebhooks(cfg, rng, onDelivery),
    now: () => t.now(),
    at: (atMs, fn, again) => t.at(atMs, fn, again as never),
    send: (req, done) => t.send(req, done),
    probe: () => undefined,
    drive: (stop, hardEndMs, tick) => t.drive(stop, hardEndMs, tick),
    close: () => t.close(),
  };
}
