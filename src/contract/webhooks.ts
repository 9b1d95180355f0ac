/**
 * A webhook delivery and who sends it. The endpoint schedules attempts (sim/webhooks.ts); the
 * sender is injected: a function in-process, an HTTP client in serve.
 */

export interface WebhookDelivery {
  endpointId: string;
  jobId: string;
  url: string;
  /** Status body + `input` + `webhook`. */
  body: Record<string, unknown>;
  attempt: number;
}

/** Outcome of one attempt: the HTTP status, or an error (timeout, refused target, …). */
export interface WebhookResult {
  httpStatus?: number;
  error?: string;
}

export interface WebhookSender {
  /** Sends one attempt; `done` may be called synchronously or later (in real time). */
  send(d: WebhookDelivery, done: (r: WebhookResult) => void): void;
}

/** In-process default with no receiver: every delivery is acknowledged with 200. */
export const acknowledgeAll: WebhookSender = { send: (_d, done) => done({ httpStatus: 200 }) };
