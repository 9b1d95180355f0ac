/**
 * A wake-up at a fractional-ms wall time for the HTTP target's event loop, without spinning.
 *
 * Node's timers are whole ms (libuv polls with a ms timeout), so an arrival due in 0.3 ms would
 * go out up to ~2 ms late on a timer; spinning on setImmediate instead burns a core (mostly
 * `epoll_wait` with a zero timeout, competing with the server for the CPU) and ~3 KB of garbage
 * per request (an Immediate and heap numbers per pass: more scavenges, each one holding every
 * send due meanwhile). Here a small worker thread sleeps on a futex (`Atomics.wait`, µs timeout)
 * until the time written in shared memory, then posts one message, which wakes the main thread's
 * poll; the main thread blocks in poll meanwhile, so answers are still read the moment they come.
 *
 * Times are `performance.now()` of the main thread; both threads convert through the monotonic
 * clock of `process.hrtime`.
 */
import { Worker } from 'node:worker_threads';

/**
 * Runs in the worker. `i32[0]`: generation (bumped on every change); `i32[1]`: 1 = stop;
 * `f64[1]`: due time (hrtime ms).
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const i32 = new Int32Array(workerData);
const f64 = new Float64Array(workerData);
parentPort.postMessage(-1);
for (;;) {
  const gen = Atomics.load(i32, 0);
  if (Atomics.load(i32, 1) === 1) break;
  const at = f64[1];
  const left = at - Number(process.hrtime.bigint()) / 1e6;
  if (left > 0) {
    Atomics.wait(i32, 0, gen, left === Infinity ? undefined : left);
    continue;
  }
  parentPort.postMessage(gen);
  Atomics.wait(i32, 0, gen);
}
`;

export class WallAlarm {
  private readonly i32: Int32Array;
  private readonly f64: Float64Array;
  private readonly worker: Worker;
  /** hrtime ms − performance.now() of this thread. */
  private readonly offset: number;
  private fire: (() => void) | undefined = undefined;
  /** Resolves once the worker runs (its thread takes tens of ms to start): wake-ups are prompt. */
  readonly ready: Promise<void>;

  constructor() {
    const sab = new SharedArrayBuffer(16);
    this.i32 = new Int32Array(sab);
    this.f64 = new Float64Array(sab);
    this.f64[1] = Infinity;
    performance.now(); // the first call may load perf_hooks: not between the two readings below
    const before = performance.now();
    this.offset = Number(process.hrtime.bigint()) / 1e6 - (before + performance.now()) / 2;
    this.worker = new Worker(WORKER, { eval: true, workerData: sab });
    let started: () => void;
    // Held (ref'd) until it runs, so that awaiting `ready` keeps the process alive; then a loose
    // alarm does not (the HTTP target's intervals hold the loop while it drives).
    this.ready = new Promise<void>((resolve) => (started = resolve)).then(() => void this.worker.unref());
    this.worker.on('message', (m: number) => (m === -1 ? started() : this.fire?.()));
  }

  /**
   * Calls `fn` once at `atMs` (this thread's `performance.now()`) or a little after, replacing
   * the previous wake-up. A wake-up already on its way may still call the previous `fn` early.
   */
  set(atMs: number, fn: () => void): void {
    this.fire = fn;
    this.f64[1] = atMs + this.offset;
    Atomics.add(this.i32, 0, 1);
    Atomics.notify(this.i32, 0);
  }

  /** No wake-up until the next `set`. */
  clear(): void {
    this.fire = undefined;
    this.f64[1] = Infinity;
    Atomics.add(this.i32, 0, 1);
    Atomics.notify(this.i32, 0);
  }

  async close(): Promise<void> {
    this.fire = undefined;
    Atomics.store(this.i32, 1, 1);
    Atomics.add(this.i32, 0, 1);
    Atomics.notify(this.i32, 0);
    await this.worker.terminate();
  }
}
