/**
 * The admin API of a `serve --clock manual` as a lockstep runner uses it: the virtual clock with
 * the server's request counts (`GET /_sim/clock`), advances that stop at the first observable
 * event (`POST /_sim/advance {ms, until: "answer"}`), client markers (`POST /_sim/mark`) and the
 * endpoint's occupancy at the end (`POST /_sim/occupancy`).
 */
import { Pool } from 'undici';
import type { EngineAreas, GpuAreas } from '../../record/endpoint-series.js';
import { LockstepError } from '../../usage-error.js';

/** The server's virtual time and request counts (absolute: since the server started). */
export interface Counts {
  now: number;
  /** Requests handed to the API. */
  received: number;
  /** Of those, answered or abandoned by their client. */
  ended: number;
  /** Client markers fired. */
  markers: number;
}

/** `POST /_sim/occupancy`: series in the order of sim/occupancy.ts (the run's endpoint-series.ts order). */
export interface Occupancy {
  windowMs: number;
  series: string[];
  areas: number[][];
  /** An LLM endpoint's engines (sim/engine-occupancy.ts), on the same windows; absent for other endpoints. */
  engine?: EngineAreas;
  /** An endpoint that lists its GPU types: its workers on each (sim/gpu-occupancy.ts), on the same windows; absent otherwise. */
  gpus?: GpuAreas[];
}

export class LockstepAdmin {
  private readonly pool: Pool;

  constructor(
    origin: string,
    private readonly headers: Record<string, string>,
  ) {
    this.pool = new Pool(origin, { connections: 2, pipelining: 1 });
  }

  clock(): Promise<Counts> {
    return this.call('GET', '/_sim/clock');
  }

  /** Runs the server's events up to now + `ms`, stopping right after the first answer, webhook attempt or marker. */
  advance(ms: number): Promise<Counts> {
    return this.call('POST', '/_sim/advance', { ms, until: 'answer' });
  }

  /** Queues markers at these virtual ms (server time), in this order. */
  mark(atMs: number[]): Promise<Counts> {
    return this.call('POST', '/_sim/mark', { atMs });
  }

  /** The endpoint's occupancy since the server started: value × ms per series, per window of `windowMs`. */
  occupancy(endpointId: string): Promise<Counts & Occupancy> {
    return this.call('POST', '/_sim/occupancy', { endpoint: endpointId }) as Promise<Counts & Occupancy>;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Counts> {
    const res = await this.pool.request({ method, path, headers: this.headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const j = (await res.body.json()) as Partial<Counts> & { error?: string };
    if (res.statusCode !== 200)
      throw new LockstepError(
        `lockstep: ${method} ${path} answered ${res.statusCode}${res.statusCode === 409 ? " (the server's clock is not manual: start it with --clock manual)" : ''}: ${j.error ?? ''}`,
      );
    if (typeof j.received !== 'number' || typeof j.ended !== 'number' || typeof j.markers !== 'number')
      throw new LockstepError('lockstep: the server does not report request counts (a loadlab serve with --clock manual is needed)');
    return j as Counts;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
