/**
 * @module
 * The HTTP application of one environment. Live and sandbox each get their own, on their own
 * address; a key only ever authenticates on its own environment's application.
 */
import type { Environment, UseCases } from '@drawdown/billing-core';
import type { ProxyTrust } from '@drawdown/http-kit';
import { Hono } from 'hono';
import { DEFAULT_STRIPE_JS_URL } from './config.js';
import type { AppEnv } from './http/app-env.js';
import { authenticateRequests } from './http/authentication.js';
import { limitRequestBody } from './http/body-limit.js';
import { answerErrors } from './http/error-handler.js';
import { refuseUnstorableQuery } from './http/list-params.js';
import { limitRequestRate } from './http/rate-limit-middleware.js';
import type { RequestRateLimits } from './http/rate-limiter.js';
import { observeRequests } from './http/request-observation.js';
import type { RequestObserver } from './http/request-observer.js';
import type { RequestTracing } from './http/request-tracing.js';
import { registerCheckoutRoutes } from './http/routes/checkout.js';
import { registerClientTokenRoutes } from './http/routes/client-tokens.js';
import { registerCurrencyRoutes } from './http/routes/currencies.js';
import { registerCustomerRoutes } from './http/routes/customers.js';
import { registerDiscountRoutes } from './http/routes/discounts.js';
import { registerEmailRoutes } from './http/routes/emails.js';
import { registerEventTypeRoutes } from './http/routes/event-types.js';
import { registerEventRoutes } from './http/routes/events.js';
import { registerInvoiceDownloadRoutes } from './http/routes/invoices.js';
import { registerIpAddressRoutes } from './http/routes/ip-addresses.js';
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
import { registerUnconfiguredPortal } from './http/routes/unconfigured-portal.js';
import { registerUsageRoutes } from './http/routes/usage.js';
import { registerUsageCatalogueRoutes } from './http/routes/usage-catalogue.js';
import { answerUnmatchedRoute } from './http/unmatched-route.js';
import type { DocumentPool } from './rendering/document-pool.js';
import type { InvoiceLinkSigner } from './rendering/invoice-links.js';
import type { PortalSessionSigner } from './rendering/portal-session-links.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppDependencies {
  /** Every use case, bound once by the composition root. */
  readonly useCases: UseCases;
  /** Signs invoice links and verifies them. */
  readonly invoiceLinks: InvoiceLinkSigner;
  /** Renders invoice and credit note PDFs on worker threads (ADR 1491). */
  readonly documents: DocumentPool;
  /** Counts requests per API key and per client address (ADR 1480); null when both are off. */
  readonly rateLimits: RequestRateLimits | null;
  /** Signs customer portal session tokens (ADR 1443). */
  readonly portalSessions: PortalSessionSigner;
  /** Trusted proxies in front: a count, or `true` for one (ADR 0903). */
  readonly trustProxy: boolean | ProxyTrust;
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
  /** The IPv4 CIDRs `GET /ips` lists (`--webhook-source-ips`, ADR 1476); none when absent. */
  readonly webhookSourceIps?: readonly string[] | undefined;
  /** Where notices that are not failures go (a provider webhook for an unknown payment). */
  readonly logNotice?: NoticeLogger | undefined;
}

export interface EnvironmentOptions {
  readonly environment: Environment;
  /** The base URL advertised in pagination links; read per request, since a port may be bound late. */
  readonly publicBaseUrl: () => string;
  /**
   * The billing portal's public address for this environment (portal session and management
   * URLs); absent or null: none is configured (ADR 1472).
   */
  readonly portalUrl?: (() => string | null) | undefined;
}

/** Routes that answer without an API key. */
function registerPublicRoutes(app: Hono<AppEnv>, dependencies: AppDependencies, environment: Environment): void {
  registerCurrencyRoutes(app);
  registerIpAddressRoutes(app, dependencies.webhookSourceIps ?? []);
  registerUnconfiguredPortal(app, environment);
  registerCheckoutRoutes(app, environment, { stripeJsUrl: dependencies.stripeJsUrl ?? DEFAULT_STRIPE_JS_URL });
  registerInvoiceDownloadRoutes(app, dependencies.invoiceLinks, dependencies.documents, environment);
  registerReportDownloadRoutes(app, dependencies.invoiceLinks, environment);
  // Live payments go through the account's provider, whose webhooks arrive here (ADR 1422).
  if (environment === 'live') registerProviderWebhookRoutes(app, dependencies.logNotice ?? (() => {}));
}

export function createApp(dependencies: AppDependencies, options: EnvironmentOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(
    observeRequests({
      environment: options.environment,
      useCases: dependencies.useCases,
      publicBaseUrl: options.publicBaseUrl,
      portalUrl: options.portalUrl ?? (() => null),
      observeRequest: dependencies.observeRequest,
      tracing: dependencies.tracing,
      trustProxy: dependencies.trustProxy,
    }),
  );
  app.use(
    limitRequestRate({
      limits: dependencies.rateLimits,
      trustProxy: dependencies.trustProxy,
      useCases: dependencies.useCases,
      environment: options.environment,
    }),
  );
  app.use(limitRequestBody(MAX_BODY_BYTES));
  app.use(refuseUnstorableQuery);

  // Public routes (no API key: the currency list, signed invoice links) are registered here,
  // before the authentication middleware.
  registerPublicRoutes(app, dependencies, options.environment);

  app.use(authenticateRequests(dependencies.useCases, options.environment));

  registerProductRoutes(app);
  registerPriceRoutes(app);
  registerCustomerRoutes(app);
  registerPaymentMethodRoutes(app);
  registerPortalSessionRoutes(app, dependencies.portalSessions);
  registerClientTokenRoutes(app);
  registerDiscountRoutes(app);
  registerUsageCatalogueRoutes(app);
  registerEventRoutes(app);
  registerEmailRoutes(app);
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

  app.notFound(answerUnmatchedRoute);
  app.onError(
    answerErrors((message, error, fields) => dependencies.logError(message, error, fields), options.environment),
  );

  return app;
}
