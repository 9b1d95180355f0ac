/**
 * The in-process target of a scenario: a fresh simulator of its one endpoint, seeded with the
 * run's seed (the default target of runScenario).
 */
import { parseSimConfig } from '../../../contract/endpoint-config.js';
import { Simulator } from '../../../sim/simulator.js';
import type { Scenario } from '../../scenario/schema.js';
import { InProcessTarget } from './in-process-target.js';
import { InternalError } from '../../../contract/loadlab-error.js';

export function inProcessTarget(sc: Scenario, seed: number | string): InProcessTarget {
  const parsed = parseSimConfig({ seed, endpoints: [sc.endpoint] });
  if (!parsed.ok) throw new InternalError(`endpoint: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return new InProcessTarget(new Simulator(parsed.config), sc.endpoint.id);
}
