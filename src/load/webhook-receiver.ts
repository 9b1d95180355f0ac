/**
 * The built-in webhook receiver of the in-process target: a WebhookSender that hands every
 * attempt to the run's recorder and answers 200, or fails as the scenario asks (the first N
 * attempts of every job, and/or with a probability drawn from its own seeded stream).
 */
import type { RandomStream } from '../sim/random.js';
import type { WebhookDelivery, WebhookResult, WebhookSender } from '../sim/webhooks.js';

export interface ReceiverConfig {
  /** Attempts 1..N of every job fail. */
  failFirstAttempts: number;
  /** Probability in [0, 1] that an attempt fails. */
  failProbability: number;
  /** HTTP status of a failed attempt. */
  failStatus: number;
}

export type DeliveryListener = (d: WebhookDelivery, ok: boolean) => void;

export function webhookReceiver(cfg: ReceiverConfig, rng: RandomStream, onDelivery: DeliveryListener): WebhookSender {
  return {
    send(d: WebhookDelivery, done: (r: WebhookResult) => void) {
      const fail = d.attempt <= cfg.failFirstAttempts || (cfg.failProbability > 0 && rng.next() < cfg.failProbability);
      onDelivery(d, !fail);
      done({ httpStatus: fail ? cfg.failStatus : 200 });
    },
  };
}
