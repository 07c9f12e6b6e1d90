/**
 * @module
 * The bound on a request's body: past `maxBytes` the request is answered 413
 * `request_body_too_large` and its connection closed.
 */
import { limitBody } from '@drawdown/http-kit';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { errorBody } from './envelope.js';

export function limitRequestBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return limitBody(maxBytes, (c) => {
    // The rest of the body is never read, so the connection cannot carry another request:
    // say so, or a keep-alive client reuses it and its next request fails.
    c.header('Connection', 'close');
    return c.json(
      errorBody(c.get('requestId'), 'request_body_too_large', `Request bodies are limited to ${maxBytes} bytes.`, []),
      413,
    );
  }) as MiddlewareHandler<AppEnv>;
}
