/**
 * `client.affinity` of a flow on a load-balancing endpoint: send back the worker id an answer
 * carried (`X-Runpod-Worker-Id`), so the next request goes to the same worker (docs/run.md
 * "Worker affinity"). `soft` sends the bare id (that worker if it has room, else any); `strict`
 * and `strict-resume` send `{mode} {id}` (only that worker; strict-resume also restarts it).
 *
 * Whose answer: a multi-turn chat session's previous turn (each session its own worker); a flow of
 * single requests (`http`, `openai-chat` without `turns`), the flow's latest answer (loadlab's
 * choice: one sticky worker per flow, as a client with one session cookie). An answer without a
 * worker id (the balancer's own: no workers, a strict worker gone or busy for 5 min) clears it, so
 * the next request goes without affinity instead of failing the same way again.
 */
import { z } from 'zod';

export const AFFINITY_MODES = ['soft', 'strict', 'strict-resume'] as const;
export type AffinityMode = (typeof AFFINITY_MODES)[number];

export const affinityField = {
  affinity: z
    .enum(AFFINITY_MODES)
    .optional()
    .meta({
      description:
        "Load-balancing endpoints only: send back the worker id an answer carried (X-Runpod-Worker-Id), so the next request goes to that worker. soft: the bare id (that worker if it has room, else any); strict: `strict {id}` (only that worker: 400 worker_timeout after 5 min at capacity, 404 affinity_worker_gone once it stopped); strict-resume: as strict, and a stopped worker starts again. A multi-turn chat (turns) sends each turn the previous turn's worker; a flow of single requests, the flow's latest answer's. Default: unset (no header; the balancer picks).",
      examples: ['soft', 'strict', 'strict-resume'],
    }),
};

/** The worker a series of requests sticks to: the latest answer's. */
export class StickyWorker {
  private id: string | undefined = undefined;

  constructor(private readonly mode: AffinityMode) {}

  /** The `X-Runpod-Worker-Id` to send now; undefined before any answer named a worker. */
  header(): string | undefined {
    const id = this.id;
    if (id === undefined) return undefined;
    return this.mode === 'soft' ? id : `${this.mode} ${id}`;
  }

  /**
   * `req` with the `X-Runpod-Worker-Id` to send now (as `workerAffinity`), or `req` itself before
   * any answer named a worker. The same object while `req` and the worker stay the same, so a
   * target that keeps a request's own form (a flow's one shared request) keeps it.
   */
  request<R extends object>(req: R): R | (R & { workerAffinity: string }) {
    const workerAffinity = this.header();
    if (workerAffinity === undefined) return req;
    if (this.last?.req !== req || this.last.out.workerAffinity !== workerAffinity) this.last = { req, out: { ...req, workerAffinity } };
    return this.last.out as R & { workerAffinity: string };
  }

  private last: { req: object; out: { workerAffinity: string } } | undefined = undefined;

  /** An answer came: its worker, or none (the balancer's own answer, a transport error). */
  answered(workerId: string | undefined): void {
    this.id = workerId;
  }
}
