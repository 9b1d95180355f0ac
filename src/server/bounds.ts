/**
 * What one `serve` process lets its clients hold, in one place. Each bound keeps a flood of
 * requests (or reads of large results) from growing the server's memory without limit; what a
 * client sees at each is in README "Security".
 */
const MiB = 1024 * 1024;

export interface ServeBounds {
  /** The request head (request line and headers) must arrive within this, ms; else 408. Default 20 000. */
  headersTimeoutMs: number;
  /** The whole request (head and body) must arrive within this, ms; else 408. Default 120 000. */
  requestTimeoutMs: number;
  /** Open connections; node closes any beyond it at once. Default 8192. */
  maxConnections: number;
  /**
   * Request-body bytes being read at once, server-wide (a declared `Content-Length` is counted
   * before the first byte). A body beyond it is answered 503 `SRV_ERR_BUSY` with `Retry-After`
   * (one body alone always passes, up to its route's limit). Default 64 MiB.
   */
  requestBodyBytesInFlight: number;
  /**
   * Bytes of serialised response bodies not yet handed to the kernel, server-wide. An answer
   * that would start beyond it waits (first come, first served) until earlier ones drain; one
   * answer alone always starts. Synthetic outputs are streamed from one shared buffer and hold
   * nothing per request. Default 32 MiB.
   */
  responseBytesInFlight: number;
  /**
   * Lingering close: after an answer given before the request body was read (401, 404, 413, 503…),
   * the rest of the body is read and thrown away for at most this long, ms, so the client sees
   * the answer and not a reset. Default 5000.
   */
  lingerMs: number;
  /** … and at most this many bytes, after which the connection is closed. Default 64 MiB. */
  lingerBytes: number;
}

export const DEFAULT_BOUNDS: Readonly<ServeBounds> = Object.freeze({
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  maxConnections: 8192,
  requestBodyBytesInFlight: 64 * MiB,
  responseBytesInFlight: 32 * MiB,
  lingerMs: 5000,
  lingerBytes: 64 * MiB,
});
