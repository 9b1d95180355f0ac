/**
 * The body of each worker thread of `loadlab plan --jobs N` (thread-runner.ts): receives the
 * sweep's shared inputs once (workerData), then runs the points it is sent, one at a time, and
 * posts each result back (or the error's stack).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runPoint, type PointTask, type SweepBase } from './sweep-point.js';

const base = workerData as SweepBase;
parentPort!.on('message', (m: { id: number; task: PointTask }) => {
  runPoint(base, m.task).then(
    (result) => parentPort!.postMessage({ id: m.id, result }),
    (e: unknown) => parentPort!.postMessage({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
