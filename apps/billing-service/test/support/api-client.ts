/**
 * @module
 * A small fetch client for HTTP tests: real requests to a running service, with the JSON
 * envelope read back and the checks every error response must pass.
 */
import type { BillingHarness } from '@drawdown/testkit';
import { expect } from 'vitest';

export type WireObject = Record<string, unknown>;

export interface WireError {
  readonly type: string;
  readonly code: string;
  readonly detail: string;
  readonly documentation_url: string;
  readonly errors?: readonly { readonly field: string; readonly message: string }[];
}

export interface WirePagination {
  readonly per_page: number;
  readonly next: string;
  readonly has_more: boolean;
  readonly estimated_total?: number;
}

export interface WireBody {
  readonly data?: unknown;
  readonly error?: WireError;
  readonly meta?: { readonly request_id: string; readonly pagination?: WirePagination };
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or `{}` when the body was empty or not JSON (see `text`). */
  readonly body: WireBody;
  readonly text: string;
  /** `data` as one entity (empty when it is not an object). */
  readonly entity: WireObject;
  /** `data` as a list of entities (empty when it is not an array). */
  readonly list: readonly WireObject[];
  /** `data.id`, or '' when absent. */
  readonly id: string;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Sent as is, instead of `JSON.stringify(body)`. */
  readonly rawBody?: string | Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  /** The Authorization header; `null` sends none. Defaults to `Bearer <client key>`. */
  readonly authorization?: string | null;
  /** `manual` answers a redirect itself instead of following it. */
  readonly redirect?: 'follow' | 'manual';
}

export interface ApiClient {
  readonly baseUrl: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, options?: RequestOptions): Promise<ApiResponse>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
}

function asObject(value: unknown): WireObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as WireObject) : {};
}

export function apiClient(baseUrl: string, key: string): ApiClient {
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const authorization = options.authorization === undefined ? `Bearer ${key}` : options.authorization;
    if (authorization !== null) headers.Authorization = authorization;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        redirect: options.redirect ?? 'follow',
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      // undici says only "fetch failed"; the request and the socket's own error say what happened.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`${method} ${path}: fetch failed (${cause?.code ?? ''} ${cause?.message ?? ''})`, {
        cause: error,
      });
    }
    const text = await response.text();
    let parsed: WireBody = {};
    try {
      parsed = asObject(JSON.parse(text)) as WireBody;
    } catch {
      parsed = {};
    }
    const entity = asObject(parsed.data);
    return {
      status: response.status,
      headers: response.headers,
      body: parsed,
      text,
      entity,
      list: Array.isArray(parsed.data) ? (parsed.data as unknown[]).map(asObject) : [],
      id: typeof entity.id === 'string' ? entity.id : '',
    };
  };
  return {
    baseUrl,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
  };
}

/** Clients for the harness account's all-permission keys. */
export function harnessClients(harness: BillingHarness): { sandbox: ApiClient; live: ApiClient } {
  return {
    sandbox: apiClient(harness.sandboxUrl, harness.sandboxKey),
    live: apiClient(harness.liveUrl, harness.liveKey),
  };
}

/** Asserts the response is the error envelope with `status` and `code`, and returns the error. */
export function expectError(response: ApiResponse, status: number, code: string): WireError {
  expect({ status: response.status, code: response.body.error?.code }, response.text).toEqual({ status, code });
  expectErrorEnvelope(response);
  return response.body.error as WireError;
}

/** Asserts the shape every error response has, whatever its code. */
export function expectErrorEnvelope(response: ApiResponse): void {
  expect(response.headers.get('content-type') ?? '', response.text).toMatch(/^application\/json/);
  const error = response.body.error;
  expect(error, response.text).toBeDefined();
  expect(error?.type).toMatch(/^(request_error|api_error)$/);
  expect(error?.code).toMatch(/^[a-z][a-z_]*$/);
  expect(typeof error?.detail).toBe('string');
  expect(error?.detail.length).toBeGreaterThan(0);
  expect(error?.documentation_url).toMatch(/^https:\/\/\S+$/);
  if (error?.code !== 'invalid_field') {
    expect(error?.errors, 'errors[] appears only for validation').toBeUndefined();
  }
  expect(response.body.meta?.request_id).toMatch(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/);
  expect(response.headers.get('request-id')).toBe(response.body.meta?.request_id);
  expect(response.body.data).toBeUndefined();
}

/** Asserts an `invalid_field` response that names `field` among its errors. */
export function expectInvalidField(response: ApiResponse, field: string): void {
  const error = expectError(response, 400, 'invalid_field');
  expect(
    error.errors?.map((entry) => entry.field),
    response.text,
  ).toContain(field);
}

/** How many outbox events a scope holds: a refused request must not add one. */
export async function eventCount(
  harness: BillingHarness,
  environment: 'live' | 'sandbox' = 'sandbox',
  accountId = harness.accountId,
): Promise<number> {
  const page = await harness.services.store.events.list(
    { accountId, environment },
    { filter: {}, perPage: 1, direction: 'asc' },
  );
  return page.estimatedTotal;
}
