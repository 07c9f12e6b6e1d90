/**
 * @module
 * The port through which the HTTP layer traces requests, so that it knows nothing of the
 * tracing library: a span starts when a request arrives (continuing the caller's trace when its
 * `traceparent` is well formed) and ends with the request's outcome.
 */
import type { RequestRecord } from './request-observer.js';

export interface RequestSpan {
  /** The W3C trace id (32 hex digits) the request belongs to, for log lines. */
  readonly traceId: string;
  /** Runs the handler with this span as the active one. */
  run<T>(handler: () => Promise<T>): Promise<T>;
  /** Names the span after the matched route and records the outcome. */
  end(record: RequestRecord): void;
}

export interface RequestTracing {
  /** Starts the span of one request; `header` reads the request's headers by lower-case name. */
  start(method: string, header: (name: string) => string | undefined): RequestSpan;
}
