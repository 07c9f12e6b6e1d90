/**
 * @module
 * The error envelope of the HTTP API and its closed list of codes. Every error body is
 * `{"error":{"code":"…","message":"…","field":"…"}}` (`field` only for request-body errors); the status of each
 * code is fixed here and nowhere else.
 */

/** Every error code the API can return. */
export const ERROR_CODES = [
  'invalid_json',
  'invalid_body',
  'unsupported_media_type',
  'body_too_large',
  'missing_field',
  'unknown_field',
  'invalid_type',
  'query_empty',
  'query_too_long',
  'query_without_terms',
  'out_of_range',
  'invalid_precision',
  'unknown_network',
  'unsupported_currency',
  'invalid_api_key',
  'too_many_requests',
  'monthly_quota_exceeded',
  'networks_unavailable',
  'not_found',
  'method_not_allowed',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status of each code. */
export const STATUS_BY_CODE = {
  invalid_json: 400,
  invalid_body: 400,
  unsupported_media_type: 415,
  body_too_large: 413,
  missing_field: 400,
  unknown_field: 400,
  invalid_type: 400,
  query_empty: 400,
  query_too_long: 400,
  query_without_terms: 400,
  out_of_range: 400,
  invalid_precision: 400,
  unknown_network: 400,
  unsupported_currency: 400,
  invalid_api_key: 401,
  too_many_requests: 429,
  monthly_quota_exceeded: 429,
  networks_unavailable: 503,
  not_found: 404,
  method_not_allowed: 405,
  internal_error: 500,
} as const satisfies Record<ErrorCode, 400 | 401 | 404 | 405 | 413 | 415 | 429 | 500 | 503>;

/** The JSON body of an error response. */
export interface ErrorBody {
  readonly error: { readonly code: ErrorCode; readonly message: string; readonly field?: string };
}

/** An error that becomes an HTTP error response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { readonly field?: string; readonly retryAfterSeconds?: number; readonly allow?: string } = {},
  ) {
    super(message);
  }

  /** The response body. */
  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details.field === undefined ? {} : { field: this.details.field }),
      },
    };
  }
}
