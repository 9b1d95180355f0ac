/**
 * The built-in webhook receiver of the in-process target: a WebhookSender that hands every
 * attempt to the run's recorder and answers 200, or fails as the scenario asks (the first N
 * attempts of every job, and/or with a probability drawn from its own seeded stream).
 */
import type { RandomStream } from '../../lib/random.js';
import type { WebhookDelivery, WebhookResult, WebhookSender } from '../../contract/webhooks.js';

export interface ReceiverConfig {
  /** Attempts 1..N of every job fail. */
  failFirstAttempts: number;
  /** Probability in [0, 1] that an attempt fails. */
  failProbability: number;
  /** HTTP status of a failed attempt. */
  failStatus: number;
}

/**
 * What a receiver over HTTP turned away (report.json `webhooks.refused`, `webhooks.malformed`):
 * requests not to its URL, and POSTs to it that were no delivery.
 */
export interface WebhookRefusals {
  /** Answered 404: another path, a missing or wrong token, another method. */
  refused: number;
  /** POSTs to its URL answered 400 (not a JSON object with a string `id`) or 413 (body too large). */
  malformed: number;
}

export type DeliveryListener = (d: WebhookDelivery, ok: boolean) => void;

/** Does the receiver fail this attempt (1-based)? Draws from `rng` only with a probability set. */
export function failsAttempt(cfg: ReceiverConfig, rng: RandomStream, attempt: number): boolean {
  return attempt <= cfg.failFirstAttempts || (cfg.failProbability > 0 && rng.next() < cfg.failProbability);
}

export function webhookReceiver(cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): WebhookSender {
  return {
    send(d: WebhookDelivery, done: (r: WebhookResult) => void) {
      const fail = failsAttempt(cfg, rng, d.attempt);
      onDelivery(d, !fail);
      done({ httpStatus: fail ? cfg.failStatus : 200 });
    },
  };
}
