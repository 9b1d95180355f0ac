/** The parts of autocannon (v8, untyped) that `loadlab blast` and the benchmarks use. */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  export interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Requests per second over all connections (closed model when unset). */
    overallRate?: number;
    /** Requests sent in turn (fields default to the options above); `onResponse` sees each answer's body. */
    requests?: AutocannonRequest[];
  }
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before the instance's `response` event for the same answer. */
    onResponse?(status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>): void;
  }
  export interface AutocannonHistogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9?: number;
    p2_5?: number;
    p97_5?: number;
  }
  export interface AutocannonResult {
    requests: AutocannonHistogram;
    latency: AutocannonHistogram;
    throughput: AutocannonHistogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    start: Date;
    finish: Date;
  }
  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }
  function autocannon(opts: AutocannonOptions): Instance;
  export default autocannon;
}
