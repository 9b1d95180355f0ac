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
  SRV_ERR_CLOCK_NOT_MANUAL: { status: 409, message: 'the clock is not manual (start with --clock manual)' },
  SRV_ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'payload too large' },
  SRV_ERR_URI_TOO_LONG: { status: 414, message: 'request target too long' },
  SRV_ERR_HEADERS_TOO_LARGE: { status: 431, message: 'request headers too large' },
  SRV_ERR_INTERNAL: { status: 500, message: 'internal error' },
  SRV_ERR_SHUTTING_DOWN: { status: 503, message: 'server is shutting down' },
} as const;

export type ServerErrorCode = keyof typeof SERVER_ERRORS;

export function serverError(code: ServerErrorCode, message?: string): ApiResponse {
  const e = SERVER_ERRORS[code];
  return { status: e.status, body: { error: message ?? e.message, code } };
}
