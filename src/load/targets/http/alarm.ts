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
 * The wake-up is late by ~0.2 ms at the median and by ms at p99 on a busy VM (two threads woken
 * one after the other), so the HTTP target sets it SPIN_MS before the due time and spins the rest.
 *
 * Times are `performance.now()` of the main thread; both threads convert through the monotonic
 * clock of `process.hrtime`.
 */
import { Worker } from 'node:worker_threads';

/**
 * Shared memory: `i32[0]` generation (bumped on every change), `i32[1]` 1 = stop, `i32[2]` when
 * the worker wakes next (1/16 ms since `f64[3]`, rounded up; NEVER: only when notified),
 * `f64[2]` due time, `f64[3]` the base (both hrtime ms).
 *
 * After firing, the worker lingers: it wakes again after about the last interval between due
 * times, by when the main thread has usually set the next one. A due time at or after the
 * worker's next wake needs no notify (a futex wake-up costs the main thread a system call and,
 * on a busy machine, a switch to the worker), so at a steady rate the main thread only writes.
 */
const NEVER = 0x7fffffff;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const i32 = new Int32Array(workerData, 0, 4);
const f64 = new Float64Array(workerData);
const NEVER = ${NEVER};
const base = f64[3];
const now = () => Number(process.hrtime.bigint()) / 1e6;
/** Publishes the next wake-up (rounded up), then sleeps until it or a notify / change. */
const sleep = (gen, until) => {
  const t = now();
  const u = (until - base) * 16;
  Atomics.store(i32, 2, until === Infinity || u >= NEVER - 1 ? NEVER : Math.ceil(u) + 1);
  Atomics.wait(i32, 0, gen, until === Infinity ? undefined : Math.max(0, until - t));
};
parentPort.postMessage('ready');
let firedGen = -1;
let prevAt = -Infinity;
let lingerUntil = 0;
for (;;) {
  const gen = Atomics.load(i32, 0);
  if (Atomics.load(i32, 1) === 1) break;
  const at = f64[2];
  if (gen === firedGen) {
    sleep(gen, now() < lingerUntil ? lingerUntil : Infinity);
    continue;
  }
  const t = now();
  if (at > t) {
    sleep(gen, at);
    continue;
  }
  parentPort.postMessage(gen);
  firedGen = gen;
  lingerUntil = t + Math.min(Math.max((at - prevAt) * 0.8, 0.05), 2);
  prevAt = at;
}
`;

export class WallAlarm {
  private readonly i32: Int32Array;
  private readonly f64: Float64Array;
  private readonly worker: Worker;
  /** hrtime ms − performance.now() of this thread. */
  private readonly offset: number;
  /** `f64[3]`: hrtime ms the worker's published wake-up counts from. */
  private readonly base: number;
  private fire: (() => void) | undefined = undefined;
  /** Resolves once the worker runs (its thread takes tens of ms to start): wake-ups are prompt. */
  readonly ready: Promise<void>;

  constructor() {
    const sab = new SharedArrayBuffer(32);
    this.i32 = new Int32Array(sab, 0, 4);
    this.f64 = new Float64Array(sab);
    this.f64[2] = Infinity;
    performance.now(); // the first call may load perf_hooks: not between the two readings below
    const before = performance.now();
    this.offset = Number(process.hrtime.bigint()) / 1e6 - (before + performance.now()) / 2;
    this.f64[3] = this.base = performance.now() + this.offset;
    this.i32[2] = NEVER;
    this.worker = new Worker(WORKER, { eval: true, workerData: sab });
    let started: () => void;
    // Held (ref'd) until it runs, so that awaiting `ready` keeps the process alive; then a loose
    // alarm does not (the HTTP target's intervals hold the loop while it drives).
    this.ready = new Promise<void>((resolve) => (started = resolve)).then(() => void this.worker.unref());
    // A wake-up for an earlier generation is dropped: the current one comes when it is due.
    this.worker.on('message', (m: number | 'ready') => (m === 'ready' ? started() : m === Atomics.load(this.i32, 0) ? this.fire?.() : undefined));
  }

  /**
   * Calls `fn` once at `atMs` (this thread's `performance.now()`) or a little after, replacing
   * the previous wake-up.
   */
  set(atMs: number, fn: () => void): void {
    this.fire = fn;
    const at = atMs + this.offset;
    this.f64[2] = at;
    Atomics.add(this.i32, 0, 1);
    // Read after the bump: if the worker publishes a later wake-up after this read, its wait
    // sees the new generation and returns at once.
    const wake = Atomics.load(this.i32, 2);
    if (wake === NEVER || (at - this.base) * 16 < wake) Atomics.notify(this.i32, 0);
  }

  /** No wake-up until the next `set`. */
  clear(): void {
    this.fire = undefined;
    this.f64[2] = Infinity;
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
