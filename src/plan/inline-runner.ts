/** The PointRunner of `--jobs 1`: each point in this thread, one after another. */
import type { PointRunner } from './sweep.js';
import { runPoint, type SweepBase } from './sweep-point.js';

export function inlineRunner(base: SweepBase): PointRunner {
  return { run: (task) => runPoint(base, task), close: async () => undefined };
}
