/**
 * The files `loadlab calibrate` writes, the same four whether it fitted a run
 * (commands/calibrate.ts) or vllm bench serve files (commands/calibrate-bench.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The file names inside calibrate's output directory. */
export const CALIBRATION_FILES = { scenario: 'calibrated.yaml', json: 'calibration.json', md: 'calibration.md', html: 'calibration.html' } as const;

export type CalibrationPaths = Record<keyof typeof CALIBRATION_FILES, string>;

/** `dir` created (with its parents), and each file's path in it. */
export function calibrationPaths(dir: string): CalibrationPaths {
  mkdirSync(dir, { recursive: true });
  return Object.fromEntries(Object.entries(CALIBRATION_FILES).map(([k, f]) => [k, join(dir, f)])) as CalibrationPaths;
}
