/**
 * Errors the HTTP layer answers itself, before or beside the API (whose table is api/errors.ts).
 * Same body shape: `{"error": message, "code": code}`; tests assert the code.
 */
import type { ApiResponse } from '../api/types.js';

export const SERVER_ERRORS = {
  SRV_ERR_BAD_ENCODING: { status: 400, message: 'malformed percent-encoding in the request target' },
  SRV_ERR_BAD_REQUEST: { status: 400, message: 'malformed HTTP request' },
  SRV_ERR_TOO_DEEP: { status: 400, message: 'JSON body nested too deeply' },
  SRV_ERR_BAD_ADVANCE: { status: 400, message: 'body must be {"ms": <integer >= 0>}' },
  SRV_ERR_UNAUTHORIZED: { status: 401, message: 'missing or invalid API key' },
  SRV_ERR_NOT_FOUND: { status: 404, message: 'no such route' },
  SRV_ERR_METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed on this route' },
  SRV_ERR_REQUEST_TIMEOUT: { status: 408, message: 'request not received in time' },
  SRV_ERR_CLOCK_NOT_MANUAL: { status: 409, message: 'the clock is not manual (start with --clock manual)' },
  SRV_ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'payload too large' },
  SRV_ERR_URI_TOO_LONG: { status: 414, message: 'request target too long' },
  SRV_ERR_HEADERS_TOO_LARGE: { status: 431, message: 'request headers too large' },
  SRV_ERR_INTERNAL: { status: 500, message: 'internal error' },
  SRV_ERR_SHUTTING_DOWN: { status: 503, message: 'server is shutting down' },
  SRV_ERR_BUSY: { status: 503, message: 'too many request bodies being read at once; retry later' },
} as const;

/** Seconds a client is asked to wait (`Retry-After`) after SRV_ERR_BUSY. */
export const BUSY_RETRY_AFTER_S = 1;

/** Reason phrases of the statuses answered on a raw socket (before node's HTTP layer has a response). */
export const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

export type ServerErrorCode = keyof typeof SERVER_ERRORS;

export function serverError(code: ServerErrorCode, message?: string): ApiResponse {
  const e = SERVER_ERRORS[code];
  const r: ApiResponse = { status: e.status, body: { error: message ?? e.message, code } };
  if (code === 'SRV_ERR_BUSY') r.headers = { 'retry-after': String(BUSY_RETRY_AFTER_S) };
  return r;
}

/** The error node's parser reported for a connection (clientError), as the code to answer. */
export function clientErrorCode(nodeCode: string | undefined): ServerErrorCode {
  if (nodeCode === 'HPE_HEADER_OVERFLOW') return 'SRV_ERR_HEADERS_TOO_LARGE';
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') return 'SRV_ERR_REQUEST_TIMEOUT';
  return 'SRV_ERR_BAD_REQUEST';
}
