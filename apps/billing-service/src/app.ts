/**
 * @module
 * The HTTP application of one environment. Live and sandbox each get their own, on their own
 * address; a key only ever authenticates on its own environment's application.
 */
import { BillingError, type Environment, type UseCases } from '@drawdown/billing-core';
import { bodyLeftUnread, clientAddress, limitBody, requestHeader } from '@drawdown/http-kit';
import { Hono } from 'hono';
import { DEFAULT_PORTAL_URL, DEFAULT_STRIPE_JS_URL } from './config.js';
import type { AppEnv } from './http/app-env.js';
import { errorBody, respondError, unexpectedFailure } from './http/envelope.js';
import { refuseUnstorableQuery } from './http/list-params.js';
import type { RateLimiter } from './http/rate-limiter.js';
import { type RequestObserver, requestIdFrom, routeOf } from './http/request-observer.js';
import type { RequestTracing } from './http/request-tracing.js';
import { registerCheckoutRoutes } from './http/routes/checkout.js';
import { registerClientTokenRoutes } from './http/routes/client-tokens.js';
import { registerCurrencyRoutes } from './http/routes/currencies.js';
import { registerCustomerRoutes } from './http/routes/customers.js';
import { registerDiscountRoutes } from './http/routes/discounts.js';
import { registerEventTypeRoutes } from './http/routes/event-types.js';
import { registerEventRoutes } from './http/routes/events.js';
import { registerInvoiceDownloadRoutes } from './http/routes/invoices.js';
import { registerMetricsRoutes } from './http/routes/metrics.js';
import { registerNotificationSettingRoutes } from './http/routes/notification-settings.js';
import { registerNotificationRoutes } from './http/routes/notifications.js';
import { registerPaymentMethodRoutes } from './http/routes/payment-methods.js';
import { type NoticeLogger, registerProviderWebhookRoutes } from './http/routes/payment-provider-webhooks.js';
import { registerPortalSessionRoutes } from './http/routes/portal-sessions.js';
import { registerPreviewRoutes } from './http/routes/previews.js';
import { registerPriceRoutes } from './http/routes/prices.js';
import { registerProductRoutes } from './http/routes/products.js';
import { registerReportDownloadRoutes, registerReportRoutes } from './http/routes/reports.js';
import { registerSandboxClockRoutes } from './http/routes/sandbox-clock.js';
import { registerSimulationRoutes } from './http/routes/simulations.js';
import { registerSubscriptionRoutes } from './http/routes/subscriptions.js';
import { registerTransactionRoutes } from './http/routes/transactions.js';
import { registerUsageRoutes } from './http/routes/usage.js';
import { registerUsageCatalogueRoutes } from './http/routes/usage-catalogue.js';
import { rateDecisionTakenAhead } from './http/usage-events-fast-path.js';
import type { InvoiceLinkSigner } from './rendering/invoice-links.js';
import type { PortalSessionSigner } from './rendering/portal-session-links.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppDependencies {
  /** Every use case, bound once by the composition root. */
  readonly useCases: UseCases;
  /** Signs invoice links and verifies them. */
  readonly invoiceLinks: InvoiceLinkSigner;
  /** Signs customer portal session tokens (ADR 1443). */
  readonly portalSessions: PortalSessionSigner;
  readonly rateLimiter: RateLimiter | null;
  readonly trustProxy: boolean;
  /** Where unexpected failures are reported, with the request's id, account and environment when known; never secrets or bodies. */
  logError(message: string, error: unknown, fields?: Record<string, unknown>): void;
  /** Hears every request's outcome: the access log and the request metrics. */
  readonly observeRequest?: RequestObserver | undefined;
  /** Traces every request (OpenTelemetry, when configured). */
  readonly tracing?: RequestTracing | undefined;
  /** Wakes the simulation delivery worker after a run or a replay (absent: it finds them by polling). */
  readonly wakeSimulationDelivery?: (() => void) | undefined;
  /** Wakes the report worker after a report is requested (absent: it finds them by polling). */
  readonly wakeReports?: (() => void) | undefined;
  /** Where the hosted checkout loads Stripe.js from (ADR 1424); Stripe's own address when absent. */
  readonly stripeJsUrl?: string | undefined;
  /** Where notices that are not failures go (a provider webhook for an unknown payment). */
  readonly logNotice?: NoticeLogger | undefined;
}

export interface EnvironmentOptions {
  readonly environment: Environment;
  /** The base URL advertised in pagination links; read per request, since a port may be bound late. */
  readonly publicBaseUrl: () => string;
  /** The billing portal's public address for this environment (portal session and management URLs). */
  readonly portalUrl?: (() => string) | undefined;
}

/** Routes that answer without an API key. */
function registerPublicRoutes(app: Hono<AppEnv>, dependencies: AppDependencies, environment: Environment): void {
  registerCurrencyRoutes(app);
  registerCheckoutRoutes(app, environment, { stripeJsUrl: dependencies.stripeJsUrl ?? DEFAULT_STRIPE_JS_URL });
  registerInvoiceDownloadRoutes(app, dependencies.invoiceLinks, environment);
  registerReportDownloadRoutes(app, dependencies.invoiceLinks, environment);
  // Live payments go through the account's provider, whose webhooks arrive here (ADR 1422).
  if (environment === 'live') registerProviderWebhookRoutes(app, dependencies.logNotice ?? (() => {}));
}

export function createApp(dependencies: AppDependencies, options: EnvironmentOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const startedAt = performance.now();
    const requestId = requestIdFrom(requestHeader(c, 'x-request-id'));
    c.set('requestId', requestId);
    c.set('useCases', dependencies.useCases);
    c.set('publicBaseUrl', options.publicBaseUrl().replace(/\/+$/, ''));
    c.set('portalUrl', (options.portalUrl?.() ?? DEFAULT_PORTAL_URL).replace(/\/+$/, ''));
    c.header('Request-Id', requestId);
    const span = dependencies.tracing?.start(c.req.method, (name) => requestHeader(c, name));
    await (span ? span.run(next) : next());
    const record = {
      requestId,
      method: c.req.method,
      route: routeOf(c),
      status: c.res.status,
      durationMs: performance.now() - startedAt,
      environment: options.environment,
      accountId: c.get('caller')?.scope.accountId,
      traceId: span?.traceId,
    };
    span?.end(record);
    dependencies.observeRequest?.(record);
    // A request answered before its body was read (refused auth, a bad path, a bodiless action)
    // leaves the body on the wire; keep-alive clients would send the next request after it.
    if (bodyLeftUnread(c)) c.header('Connection', 'close');
  });

  app.use(async (c, next) => {
    if (dependencies.rateLimiter) {
      // A request the usage-events fast path handed over was counted there (ADR 0719).
      const decision =
        rateDecisionTakenAhead(c) ??
        (await dependencies.rateLimiter.hit(
          clientAddress(c, dependencies.trustProxy ? 1 : 0) ?? 'in-process',
          Date.now(),
        ));
      if (!decision.allowed) {
        const error = new BillingError(
          'too_many_requests',
          `Too many requests from this address; retry after ${decision.retryAfterSeconds} seconds.`,
        );
        return respondError(c, error, { 'Retry-After': String(decision.retryAfterSeconds) });
      }
    }
    await next();
  });

  app.use(
    limitBody(MAX_BODY_BYTES, (c) => {
      // The rest of the body is never read, so the connection cannot carry another request:
      // say so, or a keep-alive client reuses it and its next request fails.
      c.header('Connection', 'close');
      return c.json(
        errorBody(
          c.get('requestId'),
          'request_body_too_large',
          `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`,
          [],
        ),
        413,
      );
    }),
  );

  app.use(refuseUnstorableQuery);

  // Public routes (no API key: the currency list, signed invoice links) are registered here,
  // before the authentication middleware.
  registerPublicRoutes(app, dependencies, options.environment);

  app.use(async (c, next) => {
    const { key, account } = await dependencies.useCases.authenticate(
      requestHeader(c, 'authorization'),
      options.environment,
    );
    c.set('apiKey', key);
    c.set('caller', { account, scope: { accountId: account.id, environment: options.environment } });
    await next();
  });

  registerProductRoutes(app);
  registerPriceRoutes(app);
  registerCustomerRoutes(app);
  registerPaymentMethodRoutes(app);
  registerPortalSessionRoutes(app, dependencies.portalSessions);
  registerClientTokenRoutes(app);
  registerDiscountRoutes(app);
  registerUsageCatalogueRoutes(app);
  registerEventRoutes(app);
  registerEventTypeRoutes(app);
  registerNotificationSettingRoutes(app);
  registerNotificationRoutes(app);
  registerSimulationRoutes(app, dependencies.wakeSimulationDelivery ?? (() => {}));
  registerMetricsRoutes(app);
  registerReportRoutes(app, dependencies.invoiceLinks, dependencies.wakeReports ?? (() => {}));
  registerSubscriptionRoutes(app);
  registerPreviewRoutes(app);
  registerTransactionRoutes(app, dependencies.invoiceLinks);
  registerUsageRoutes(app);
  if (options.environment === 'sandbox') registerSandboxClockRoutes(app);

  app.notFound((c) =>
    respondError(c, new BillingError('not_found', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`)),
  );

  app.onError((error, c) => {
    if (error instanceof BillingError) return respondError(c, error);
    dependencies.logError(`${c.req.method} ${routeOf(c)} failed`, error, {
      requestId: c.get('requestId'),
      environment: options.environment,
      accountId: c.get('caller')?.scope.accountId,
    });
    return respondError(c, unexpectedFailure());
  });

  return app;
}
