/**
 * Errors on the OpenAI routes, shaped as OpenAI's: `{"error": {message, type, param, code}}`
 * (`param` the request field at fault, else null). A 429 is `type: "requests"`,
 * `code: "rate_limit_exceeded"` and keeps the simulator's `cause` (rate, concurrency or queue)
 * beside `error`; a job that ended otherwise than COMPLETED answers 500 with its status as `code`.
 */
import type { ApiResponse } from './types.js';

/**
 * The `code` of a 500 on an OpenAI route whose job ended otherwise than COMPLETED (its status), or
 * was still live when the server's wait ended (IN_QUEUE, IN_PROGRESS).
 */
export const OPENAI_JOB_CODES = ['FAILED', 'TIMED_OUT', 'CANCELLED', 'IN_QUEUE', 'IN_PROGRESS'] as const;

/** OpenAI's `code` for each of the API's own error codes (errors.ts) that can reach an OpenAI route. */
export const OPENAI_CODES: Readonly<Record<string, string | null>> = {
  API_ERR_BAD_REQUEST: null,
  API_ERR_BAD_JSON: null,
  API_ERR_UNAUTHORIZED: 'invalid_api_key',
  API_ERR_ENDPOINT_NOT_FOUND: 'endpoint_not_found',
  API_ERR_JOB_NOT_FOUND: 'job_not_found',
  API_ERR_ROUTE_NOT_FOUND: 'route_not_found',
  API_ERR_METHOD_NOT_ALLOWED: 'method_not_allowed',
  API_ERR_PAYLOAD_TOO_LARGE: 'payload_too_large',
  API_ERR_RATE_LIMITED: 'rate_limit_exceeded',
  API_ERR_CONCURRENCY_LIMITED: 'rate_limit_exceeded',
  API_ERR_QUEUE_FULL: 'rate_limit_exceeded',
  API_ERR_INTERNAL: 'internal_error',
};

export interface OpenAiError {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

export function openaiErrorBody(status: number, message: string, code: string | null, param: string | null = null): { error: OpenAiError } {
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param, code } };
}

/** `r` as an OpenAI route answers it: an error of the API's table reshaped; anything else as it is. */
export function openaiShaped(r: ApiResponse): ApiResponse {
  const b = r.body as { error?: unknown; code?: unknown; field?: unknown; cause?: unknown } | undefined;
  if (r.status < 400 || typeof b?.error !== 'string') return r;
  const code = typeof b.code === 'string' ? (OPENAI_CODES[b.code] ?? null) : null;
  const body: Record<string, unknown> = openaiErrorBody(r.status, b.error, code, typeof b.field === 'string' ? b.field : null);
  if (b.cause !== undefined) body.cause = b.cause;
  return r.headers ? { status: r.status, body, headers: r.headers } : { status: r.status, body };
}

/** Is this path one of the OpenAI routes' (`/v2/{id}/openai/…`)? */
export function isOpenAiPath(path: string, endpointId: string): boolean {
  return path.startsWith('/openai/', 4 + endpointId.length);
}
