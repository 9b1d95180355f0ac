/**
 * `windows.endpoint` in process: the simulator's occupancy (sim/occupancy.ts), integrated
 * exactly on the virtual clock, with an LLM endpoint's engines (sim/engine-occupancy.ts) and the
 * workers on each GPU type of an endpoint that lists its gpus (sim/gpu-occupancy.ts); the
 * target's drive loop calls `observe` after every event.
 */
import type { Endpoint } from '../../../sim/endpoint.js';
import { Occupancy } from '../../../sim/occupancy.js';
import type { EndpointWindows } from '../../../report/run-result.js';
import { endpointWindows, engineWindows, gpuWindows } from '../../record/endpoint-series.js';
import type { EndpointWatcher } from '../target.js';

export class EndpointWatch implements EndpointWatcher {
  private readonly occ: Occupancy;

  constructor(ep: Endpoint, windowMs: number, nowMs: number) {
    this.occ = new Occupancy(ep, windowMs, nowMs);
  }

  observe(nowMs: number): void {
    this.occ.observe(nowMs);
  }

  windows(endMs: number, n: number): EndpointWindows {
    const { engine: e, gpus: g, windowMs } = this.occ;
    return endpointWindows(
      'simulator',
      this.occ.averages(endMs, n),
      e && engineWindows(e.areas(endMs, n), windowMs, endMs, n),
      g && gpuWindows(g.areas(endMs, n), windowMs, endMs, n),
    );
  }
}
