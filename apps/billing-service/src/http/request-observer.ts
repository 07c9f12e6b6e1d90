/**
 * @module
 * Every request's id and its outcome. The id comes from an incoming `X-Request-Id` when it is
 * well formed (a proxy or client chose it, so their logs and ours share it), otherwise a new
 * UUID; it is echoed as `Request-Id` and sits in the error envelope. When the response is
 * ready the observer hears the route, status, duration, the client's address, the path when no
 * route matched, and the account and environment when the request authenticated: the access
 * log line and the request metrics come from here.
 */
import { randomUUID } from 'node:crypto';
import type { Environment } from '@drawdown/billing-core';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

/** Printable, no spaces or quotes, at most 128 characters: safe to put in a header and a log line. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:\-/+=]{1,128}$/;

export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export interface RequestRecord {
  readonly requestId: string;
  readonly method: string;
  /** The matched route pattern (`/products/:id`), never the raw path: ids stay out of metric labels. */
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  readonly environment: Environment;
  readonly accountId: string | undefined;
  /**
   * The client's address: the socket's peer, or behind `--trust-proxy` the `X-Forwarded-For`
   * entry the proxy appended; undefined for a request served in process. Never a metric label.
   */
  readonly clientAddress?: string | undefined;
  /** The requested path (no query string) of a request no route matched; absent otherwise. Never a metric label. */
  readonly path?: string | undefined;
  /** The trace the request's span belongs to, when requests are traced. */
  readonly traceId?: string | undefined;
}

export type RequestObserver = (record: RequestRecord) => void;

/** The route label every request no route matched shares. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The pattern of the route that answered; unmatched paths share one label. */
export function routeOf(c: Context<AppEnv>): string {
  const pattern = c.req.routePath;
  return !pattern || pattern === '*' || pattern === '/*' ? UNMATCHED_ROUTE : pattern;
}
