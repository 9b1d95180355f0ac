/**
 * The timeline's balancer columns (RunResult `timeline`): a load-balancing endpoint's requests its
 * balancer ended, one column per cause, in BALANCER_CAUSES order.
 */
import { BALANCER_CAUSES, type BalancerCause } from '../contract/sim-events.js';
import type { Timeline } from './run-result.js';

export type BalancerColumn = 'balancerNoWorkers' | 'balancerTimeout' | 'balancerDropped' | 'balancerWorkerTimeout' | 'balancerWorkerGone';

export const BALANCER_COLUMN: Readonly<Record<BalancerCause, BalancerColumn & keyof Timeline>> = {
  'no-workers': 'balancerNoWorkers',
  timeout: 'balancerTimeout',
  dropped: 'balancerDropped',
  'worker-timeout': 'balancerWorkerTimeout',
  'worker-gone': 'balancerWorkerGone',
};

export const BALANCER_COLUMNS: readonly BalancerColumn[] = BALANCER_CAUSES.map((c) => BALANCER_COLUMN[c]);
