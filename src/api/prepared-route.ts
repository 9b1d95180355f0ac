/**
 * A request's head, checked once (`Api.prepare`): the endpoint and route its method, path and key
 * name, and how the caller reads the answer. Nothing in it depends on the job id, the query or
 * the body, so a caller may keep it and hand it to `Api.handlePrepared` for every request with the
 * same head: serve reuses it from the head check to the body phase; the in-process target keeps
 * one per operation (job routes) or per path, for a whole run.
 */
import type { Operation } from '../contract/operations.js';
import type { Endpoint } from '../sim/endpoint.js';
import { apiError } from './errors.js';
import type { ApiResponse, Route } from './types.js';

export class PreparedRoute {
  readonly op: Operation;
  /** Largest accepted body in bytes (from the endpoint's limits when prepared: they never change). */
  readonly maxBodyBytes: number;
  /** The answer may come after `handlePrepared` returns (runsync, status-sync, stream, openai, any load-balancing request). */
  readonly mayHold: boolean;
  /** Its errors are shaped as OpenAI's (Route.openaiErrors). */
  readonly openaiErrors: boolean;

  constructor(
    readonly ep: Endpoint,
    readonly route: Route,
    /** The method it was prepared for (checked against the route). */
    readonly method: string,
    /**
     * The caller reads only the status fields of a job's status body (`id`, `status`,
     * `delayTime`, `executionTime`, `error`, `retries`): `/status` leaves `workerId` and `output`
     * out (an in-process poller: building each worker id string was ~2 % of the diurnal day).
     * Transports never ask for it.
     */
    readonly brief: boolean,
  ) {
    this.op = route.op;
    this.maxBodyBytes = route.maxBodyBytes(ep.cfg.limits);
    this.openaiErrors = route.openaiErrors === true;
    const op = route.op;
    this.mayHold = op === 'runsync' || op === 'status-sync' || op === 'stream' || op === 'openai' || op === 'lb';
  }

  /** The 413 for a body of `bytes`, or undefined when it fits. */
  tooLarge(bytes: number): ApiResponse | undefined {
    return bytes > this.maxBodyBytes ? apiError('API_ERR_PAYLOAD_TOO_LARGE', `payload of ${bytes} bytes exceeds ${this.maxBodyBytes} bytes`) : undefined;
  }
}
