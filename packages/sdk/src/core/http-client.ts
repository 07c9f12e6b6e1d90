/**
 * @module
 * One place that talks HTTP: base URL, headers, per-attempt timeout, the client-wide 429 hold,
 * retries by method, and turning responses into data or errors.
 *
 * Retry rules (ADR 0603): GET, PATCH and DELETE repeat on connection failures, 5xx and 429 (each
 * sets the same state again, so a repeat is harmless); POST repeats only on 429, which the service
 * answers before doing anything. Usage events have their own rules in `usage/report-usage.ts`.
 */
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import { DrawdownApiError, DrawdownConnectionError, type FieldError } from './errors.js';
import { buildQuery, type QueryParams } from './query.js';
import { parseRetryAfter, RequestGate } from './request-gate.js';
import type { Runtime } from './runtime.js';
import { toWire } from './wire-case.js';

export const SDK_VERSION = '0.1.0';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** `idempotent`: repeat on connection errors, 5xx and 429. `rate-limit-only`: on 429. `none`: never. */
export type RetryMode = 'idempotent' | 'rate-limit-only' | 'none';

/** Per-call options every resource method accepts. */
export interface RequestOptions {
  /** Aborts the call (and any waiting between attempts). */
  readonly signal?: AbortSignal;
  /** Extra headers for this call. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ApiRequest extends RequestOptions {
  readonly method: HttpMethod;
  /** Path below the base URL, starting with `/`; may carry its own query string. */
  readonly path: string;
  readonly query?: QueryParams;
  /** A body in TypeScript form; converted to the wire's snake_case. */
  readonly body?: unknown;
  /** A body already in wire form, sent byte for byte (usage events). */
  readonly rawBody?: string;
  /** Whether to send the API key; public endpoints (currencies) do not need it. */
  readonly authenticated?: boolean;
  readonly retry?: RetryMode;
}

/** `meta.pagination` of a list page, in wire form. */
export interface WirePagination {
  readonly per_page?: number;
  readonly next?: string;
  readonly has_more?: boolean;
  readonly estimated_total?: number;
}

export interface WireEnvelope {
  readonly data?: unknown;
  readonly meta?: { readonly request_id?: string; readonly pagination?: WirePagination };
}

export interface ApiResponse {
  readonly status: number;
  /** The parsed JSON body; null for 204. */
  readonly body: WireEnvelope | null;
  readonly requestId: string | null;
  readonly headers: Headers;
}

export interface HttpClientConfig {
  readonly apiKey: string;
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoff: BackoffPolicy;
  readonly fetch: typeof fetch;
  readonly runtime: Runtime;
  readonly headers: Readonly<Record<string, string>>;
}

interface WireError {
  readonly type?: unknown;
  readonly code?: unknown;
  readonly detail?: unknown;
  readonly documentation_url?: unknown;
  readonly errors?: unknown;
}

function fieldErrorsOf(errors: unknown): FieldError[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return [];
    const { field, message } = entry as { field?: unknown; message?: unknown };
    return typeof field === 'string' && typeof message === 'string' ? [{ field, message }] : [];
  });
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

export class HttpClient {
  readonly gate: RequestGate;

  constructor(readonly config: HttpClientConfig) {
    this.gate = new RequestGate(config.runtime);
  }

  /** The absolute URL of a path (with query) on this client's base. */
  url(path: string, query?: QueryParams): string {
    const queryText = buildQuery(query);
    if (queryText === '') return `${this.config.baseUrl}${path}`;
    return `${this.config.baseUrl}${path}${path.includes('?') ? `&${queryText.slice(1)}` : queryText}`;
  }

  /** Sends a request with the retries its method allows; throws on any failure. */
  async send(request: ApiRequest): Promise<ApiResponse> {
    const mode = request.retry ?? (request.method === 'POST' ? 'rate-limit-only' : 'idempotent');
    for (let retry = 0; ; retry += 1) {
      try {
        return await this.sendOnce(request);
      } catch (error) {
        const mayRetry =
          retry < this.config.maxRetries &&
          !request.signal?.aborted &&
          ((mode === 'idempotent' &&
            (error instanceof DrawdownConnectionError ||
              (error instanceof DrawdownApiError && isRetryableStatus(error.status)))) ||
            (mode !== 'none' && error instanceof DrawdownApiError && error.status === 429));
        if (!mayRetry) throw error;
        await this.config.runtime.sleep(backoffDelay(this.config.backoff, retry + 1, this.config.runtime.random));
      }
    }
  }

  /**
   * One attempt: waits for the client-wide 429 hold, sends, and answers or throws. A 429 answer
   * closes the hold for every request of this client until Retry-After has passed.
   */
  async sendOnce(request: ApiRequest): Promise<ApiResponse> {
    await this.gate.pass();
    request.signal?.throwIfAborted();
    const url = this.url(request.path, request.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `drawdown-sdk/${SDK_VERSION}`,
      ...this.config.headers,
      ...request.headers,
    };
    if (request.authenticated !== false) headers.authorization = `Bearer ${this.config.apiKey}`;
    let body: string | undefined;
    if (request.rawBody !== undefined) body = request.rawBody;
    else if (request.body !== undefined) body = JSON.stringify(toWire(request.body));
    if (body !== undefined) headers['content-type'] = 'application/json';

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs);
    const onAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let response: Response;
    let responseText: string;
    try {
      response = await this.config.fetch(url, {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: controller.signal,
      });
      responseText = await response.text();
    } catch (error) {
      request.signal?.throwIfAborted();
      throw new DrawdownConnectionError(
        controller.signal.aborted ? 'timeout' : 'network_error',
        request.method,
        url,
        error,
      );
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
    return this.#interpret(response, responseText);
  }

  #interpret(response: Response, responseText: string): ApiResponse {
    const headerRequestId = response.headers.get('request-id');
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.config.runtime.now());
    if (response.status === 429) this.gate.hold(retryAfter ?? 1);
    if (response.status === 204 || (response.ok && responseText === '')) {
      return { status: response.status, body: null, requestId: headerRequestId, headers: response.headers };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(responseText) as unknown;
    } catch {
      throw new DrawdownApiError({
        status: response.status,
        code: 'unexpected_response',
        type: response.status >= 500 || response.status === 429 ? 'api_error' : 'request_error',
        detail: `The service answered HTTP ${response.status} without a JSON body.`,
        documentationUrl: null,
        fieldErrors: [],
        requestId: headerRequestId,
        retryAfter,
      });
    }
    const envelope = (parsed !== null && typeof parsed === 'object' ? parsed : {}) as WireEnvelope & {
      error?: WireError;
    };
    const requestId = envelope.meta?.request_id ?? headerRequestId;
    // As in the wire format: a truthy `error` is an error whatever the status.
    if (envelope.error || !response.ok) {
      const error = envelope.error ?? {};
      throw new DrawdownApiError({
        status: response.status,
        code: text(error.code, 'unexpected_response'),
        type: text(error.type, response.status >= 500 ? 'api_error' : 'request_error'),
        detail: text(error.detail, `The service answered HTTP ${response.status}.`),
        documentationUrl: typeof error.documentation_url === 'string' ? error.documentation_url : null,
        fieldErrors: fieldErrorsOf(error.errors),
        requestId,
        retryAfter,
      });
    }
    return { status: response.status, body: envelope, requestId, headers: response.headers };
  }
}
