/**
 * @module
 * The first middleware of every request: its id (echoed as `Request-Id`), the per-request
 * values routes read (use cases, public base URL, portal URL), its span when requests are
 * traced, and, once answered, its record for the access line and the request metrics (with the
 * client's address, and the path of a request no route matched).
 */

import type { Environment, UseCases } from '@drawdown/billing-core';
import { bodyLeftUnread, clientAddress, type ProxyTrust, proxyHops, requestHeader } from '@drawdown/http-kit';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { type RequestObserver, requestIdFrom, routeOf, UNMATCHED_ROUTE } from './request-observer.js';
import type { RequestTracing } from './request-tracing.js';
import { UNCONFIGURED_PORTAL_PATH } from './unconfigured-portal-path.js';

export interface RequestObservationOptions {
  readonly environment: Environment;
  readonly useCases: UseCases;
  /** The base URL advertised in pagination links; read per request, since a port may be bound late. */
  readonly publicBaseUrl: () => string;
  /** The billing portal's public address for this environment; null: none is configured (ADR 1472). */
  readonly portalUrl: () => string | null;
  readonly observeRequest?: RequestObserver | undefined;
  readonly tracing?: RequestTracing | undefined;
  /** Behind one reverse proxy: the client is the `X-Forwarded-For` entry it appended. */
  readonly trustProxy: boolean | ProxyTrust;
}

export function observeRequests(options: RequestObservationOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const startedAt = performance.now();
    const requestId = requestIdFrom(requestHeader(c, 'x-request-id'));
    c.set('requestId', requestId);
    c.set('useCases', options.useCases);
    const publicBaseUrl = options.publicBaseUrl().replace(/\/+$/, '');
    const portalUrl = options.portalUrl();
    c.set('publicBaseUrl', publicBaseUrl);
    c.set('portalConfigured', portalUrl !== null);
    c.set(
      'portalUrl',
      portalUrl === null ? `${publicBaseUrl}${UNCONFIGURED_PORTAL_PATH}` : portalUrl.replace(/\/+$/, ''),
    );
    c.header('Request-Id', requestId);
    const span = options.tracing?.start(c.req.method, (name) => requestHeader(c, name));
    await (span ? span.run(next) : next());
    const route = routeOf(c);
    const record = {
      requestId,
      method: c.req.method,
      route,
      status: c.res.status,
      durationMs: performance.now() - startedAt,
      environment: options.environment,
      accountId: c.get('caller')?.scope.accountId,
      clientAddress: clientAddress(c, proxyHops(options.trustProxy)),
      // Only an unmatched request's path: a matched one's route names it, without its ids.
      ...(route === UNMATCHED_ROUTE ? { path: c.req.path } : {}),
      traceId: span?.traceId,
    };
    span?.end(record);
    options.observeRequest?.(record);
    // A request answered before its body was read (refused auth, a bad path, a bodiless action)
    // leaves the body on the wire; keep-alive clients would send the next request after it.
    if (bodyLeftUnread(c)) c.header('Connection', 'close');
  };
}
