/**
 * @module
 * The two ways a call fails. The service answered with an error: `DrawdownApiError`, one class
 * whatever the code. No usable answer arrived (the connection failed or the timeout passed):
 * `DrawdownConnectionError`. They are separate classes because the caller's next step differs:
 * an API error says what the service decided, a connection error says nothing about whether
 * the request was processed (ADR 0601).
 */

/** One field that failed validation, as the service names it (`unit_price.amount`). */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** The properties of an API error, for building one. */
export interface DrawdownApiErrorInit {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly detail: string;
  readonly documentationUrl: string | null;
  readonly fieldErrors: readonly FieldError[];
  readonly requestId: string | null;
  readonly retryAfter: number | null;
}

/**
 * The service refused or failed a request and said so in its error envelope.
 *
 * @example
 * try { await drawdown.products.get('pro_…'); }
 * catch (error) { if (error instanceof DrawdownApiError && error.code === 'not_found') … }
 */
export class DrawdownApiError extends Error {
  override readonly name = 'DrawdownApiError';
  /** HTTP status of the response. */
  readonly status: number;
  /** The service's snake_case error code, such as `invalid_field`, or `unexpected_response` for a non-JSON answer. */
  readonly code: string;
  /** `request_error` (the caller's to fix) or `api_error` (the service's side, or a limit). */
  readonly type: string;
  /** Human-readable explanation. */
  readonly detail: string;
  readonly documentationUrl: string | null;
  /** One entry per invalid field on `invalid_field`; empty otherwise. */
  readonly fieldErrors: readonly FieldError[];
  /** `meta.request_id` (or the `Request-Id` header): quote it when asking for support. */
  readonly requestId: string | null;
  /** Seconds to wait before sending again, from `Retry-After`; null when the header was absent. */
  readonly retryAfter: number | null;

  constructor(init: DrawdownApiErrorInit) {
    super(`${init.code}: ${init.detail}`);
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.detail = init.detail;
    this.documentationUrl = init.documentationUrl;
    this.fieldErrors = init.fieldErrors;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }

  /** True when sending the same request again later may succeed (5xx and 429). */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** Why no answer arrived: the connection failed, or the per-attempt timeout passed. */
export type ConnectionErrorCode = 'network_error' | 'timeout';

/**
 * No usable response arrived. The request may or may not have reached the service, so only
 * requests that are safe to repeat should be sent again.
 */
export class DrawdownConnectionError extends Error {
  override readonly name = 'DrawdownConnectionError';
  readonly code: ConnectionErrorCode;
  readonly method: string;
  readonly url: string;

  constructor(code: ConnectionErrorCode, method: string, url: string, cause: unknown) {
    super(
      code === 'timeout'
        ? `${method} ${url} timed out before the service answered`
        : `${method} ${url} failed before the service answered: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.code = code;
    this.method = method;
    this.url = url;
  }

  /** Always true: a connection failure is worth retrying when the request is idempotent. */
  get retryable(): boolean {
    return true;
  }
}
