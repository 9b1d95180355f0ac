/**
 * The API's error table: each error has a stable code and HTTP status; tests assert the code.
 * Bodies are `{"error": message, "code": code}` plus `field` (which input was wrong) or `cause`
 * (which limit a 429 hit: rate, concurrency or queue).
 */
import type { LimitCause } from '../contract/sim-events.js';
import type { ApiResponse } from './types.js';

export const API_ERRORS = {
  API_ERR_BAD_REQUEST: { status: 400, message: 'invalid request' },
  API_ERR_BAD_JSON: { status: 400, message: 'body is not valid JSON' },
  API_ERR_NOT_RETRYABLE: { status: 400, message: 'only FAILED or TIMED_OUT jobs can be retried' },
  API_ERR_UNAUTHORIZED: { status: 401, message: 'missing or invalid API key' },
  API_ERR_ENDPOINT_NOT_FOUND: { status: 404, message: 'endpoint not found' },
  API_ERR_JOB_NOT_FOUND: { status: 404, message: 'job not found (unknown or expired)' },
  API_ERR_ROUTE_NOT_FOUND: { status: 404, message: 'no such route' },
  API_ERR_METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed on this route' },
  API_ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'payload too large' },
  API_ERR_RATE_LIMITED: { status: 429, message: 'rate limit exceeded' },
  API_ERR_CONCURRENCY_LIMITED: { status: 429, message: 'concurrency limit exceeded' },
  API_ERR_QUEUE_FULL: { status: 429, message: 'queue is full (throttled)' },
  API_ERR_JOB_FAILED: { status: 500, message: 'job failed' },
  API_ERR_INTERNAL: { status: 500, message: 'internal error' },
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

export function apiError(code: ApiErrorCode, message?: string, extra?: { field?: string; cause?: LimitCause }): ApiResponse {
  const e = API_ERRORS[code];
  return { status: e.status, body: { error: message ?? e.message, code, ...extra } };
}

/** A 400 naming the field and the reason. */
export function badField(field: string, reason: string): ApiResponse {
  return apiError('API_ERR_BAD_REQUEST', `${field}: ${reason}`, { field });
}

const LIMIT_CODES: Record<LimitCause, ApiErrorCode> = {
  rate: 'API_ERR_RATE_LIMITED',
  concurrency: 'API_ERR_CONCURRENCY_LIMITED',
  queue: 'API_ERR_QUEUE_FULL',
};

export function limited(cause: LimitCause, operation: string): ApiResponse {
  const code = LIMIT_CODES[cause];
  return apiError(code, `${API_ERRORS[code].message} on /${operation}`, { cause });
}
