/**
 * The PointRunner of `--jobs N`: N worker threads (sweep-worker.ts), each running one point at a
 * time. The worker's code must be JavaScript: from dist/ it is the file beside this one; when this
 * module runs as TypeScript (the tests, through vitest) it is the build in dist/ (the tests' global
 * setup builds it).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PointRunner } from './sweep.js';
import type { PointResult, PointTask, SweepBase } from './sweep-point.js';

function workerFile(): URL {
  const beside = new URL('./sweep-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/src/plan/sweep-worker.js', import.meta.url);
}

interface Pending {
  task: PointTask;
  resolve: (r: PointResult) => void;
  reject: (e: Error) => void;
}

export function threadRunner(base: SweepBase, threads: number): PointRunner {
  const file = workerFile();
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const queue: Pending[] = [];
  const all: Worker[] = [];
  let nextId = 0;

  const dispatch = () => {
    while (idle.length && queue.length) {
      const w = idle.pop()!;
      const p = queue.shift()!;
      busy.set(w, p);
      w.postMessage({ id: nextId++, task: p.task });
    }
  };
  for (let i = 0; i < threads; i++) {
    const w = new Worker(file, { workerData: base });
    w.on('message', (m: { result?: PointResult; error?: string }) => {
      const p = busy.get(w)!;
      busy.delete(w);
      idle.push(w);
      if (m.error !== undefined) p.reject(new Error(`a sweep thread failed: ${m.error}`));
      else p.resolve(m.result!);
      dispatch();
    });
    w.on('error', (e) => {
      const p = busy.get(w);
      busy.delete(w);
      p?.reject(e);
    });
    // A thread that dies without an error event (out of memory, process.exit) fails its point too.
    w.on('exit', (code) => {
      const p = busy.get(w);
      busy.delete(w);
      p?.reject(new Error(`a sweep thread exited with code ${code} while running workersMax ${p.task.workersMax}, seed ${p.task.seed}`));
    });
    idle.push(w);
    all.push(w);
  }
  return {
    run: (task) =>
      new Promise((resolve, reject) => {
        queue.push({ task, resolve, reject });
        dispatch();
      }),
    close: async () => {
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
