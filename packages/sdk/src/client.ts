/**
 * @module
 * The Drawdown client: one object per API key and environment, with a client per resource.
 */

import type { BackoffPolicy } from './core/backoff.js';
import { HttpClient } from './core/http-client.js';
import { type Runtime, systemRuntime } from './core/runtime.js';
import {
  AddressesResource,
  CustomersResource,
  MetersResource,
  PricesResource,
  ProductsResource,
  UsageBalanceUnitsResource,
} from './resources/catalogue.js';
import { CurrenciesResource } from './resources/currencies.js';
import { EventsResource, EventTypesResource } from './resources/events.js';
import { NotificationSettingsResource, NotificationsResource } from './resources/notifications.js';
import { BusinessesResource, CustomerPortalSessionsResource } from './resources/portal-sessions.js';
import { SandboxClockResource } from './resources/sandbox-clock.js';
import { SubscriptionsResource } from './resources/subscriptions.js';
import { ClientTokensResource } from './resources/tokens.js';
import {
  AdjustmentsResource,
  CheckoutSettingsResource,
  PaymentMethodsResource,
  SellerDetailsResource,
  TaxSettingsResource,
  TransactionsResource,
} from './resources/transactions.js';
import { UsageBalancesResource } from './resources/usage-balances.js';
import { UsageEventsResource } from './resources/usage-events.js';
import { parseEvent } from './types/events.js';
import type { UsageEventInput } from './types/usage.js';
import {
  DEFAULT_USAGE_RETRY,
  type ReportUsageOptions,
  type UsageReport,
  type UsageRetryPolicy,
} from './usage/report-usage.js';
import { signWebhookPayload, unmarshalWebhook, verifyWebhook } from './webhooks/signature.js';

export type Environment = 'live' | 'sandbox';

/**
 * Where a self-hosted Drawdown listens by default (`drawdown serve`): live on 8080, sandbox on
 * 8081. Point `environments` (or `baseUrl`) at your deployment's public addresses.
 */
export const DEFAULT_ENVIRONMENTS: Readonly<Record<Environment, string>> = {
  live: 'http://127.0.0.1:8080',
  sandbox: 'http://127.0.0.1:8081',
};

export interface DrawdownOptions {
  /** The API's base URL; overrides `environment`. */
  readonly baseUrl?: string | undefined;
  /** Picks a base URL from `environments`. By default, the one the API key belongs to. */
  readonly environment?: Environment | undefined;
  /** The base URLs of your deployment's two environments. */
  readonly environments?: Partial<Record<Environment, string>> | undefined;
  /** Per attempt, in milliseconds. Default 30000. */
  readonly timeoutMs?: number | undefined;
  /** Repeats of an idempotent request (GET, PATCH, DELETE) after a connection error, 5xx or 429; of a POST only after a 429. Default 2. */
  readonly maxRetries?: number | undefined;
  /** Backoff between those repeats. Default 500 ms base, 8 s cap, full jitter. */
  readonly retryBackoff?: Partial<BackoffPolicy> | undefined;
  /** Attempts and backoff of `reportUsage`. Default 8 attempts, 250 ms base, 30 s cap. */
  readonly usageRetry?: Partial<UsageRetryPolicy> | undefined;
  /** The fetch to use; default `globalThis.fetch`. */
  readonly fetch?: typeof fetch | undefined;
  /** Headers added to every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Time, waiting and randomness, for tests of the retry rules. */
  readonly runtime?: Partial<Runtime> | undefined;
}

const KEY_ENVIRONMENT = /^pdl_(live|sdbx)_apikey_/;

function environmentOfKey(apiKey: string): Environment | null {
  const tag = KEY_ENVIRONMENT.exec(apiKey)?.[1];
  return tag === undefined ? null : tag === 'sdbx' ? 'sandbox' : 'live';
}

function resolveBaseUrl(
  apiKey: string,
  options: DrawdownOptions,
): { baseUrl: string; environment: Environment | null } {
  if (options.baseUrl !== undefined && options.baseUrl !== '')
    return { baseUrl: options.baseUrl, environment: options.environment ?? null };
  const keyEnvironment = environmentOfKey(apiKey);
  if (options.environment && keyEnvironment && options.environment !== keyEnvironment) {
    // The service would refuse every call with invalid_token; say why now instead.
    throw new TypeError(`This is a ${keyEnvironment} API key; it does not work on the ${options.environment} address.`);
  }
  const environment = options.environment ?? keyEnvironment ?? 'live';
  return { baseUrl: options.environments?.[environment] ?? DEFAULT_ENVIRONMENTS[environment], environment };
}

function normaliseBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${baseUrl} is not an http(s) URL.`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * A client of the Drawdown billing service.
 *
 * @example
 * const drawdown = new Drawdown(process.env.DRAWDOWN_API_KEY, { environments: { sandbox: 'https://sandbox.billing.example' } });
 * const meter = await drawdown.meters.create({ usageBalanceUnitId, name: 'API calls', action: 'api_call', unitName: 'call', rate: '1' });
 * const report = await drawdown.reportUsage({ customerId, action: 'api_call', quantity: '1' });
 */
export class Drawdown {
  /** The base URL every request goes to. */
  readonly baseUrl: string;
  /** The environment chosen by name or key; null when `baseUrl` was given without one. */
  readonly environment: Environment | null;

  readonly products: ProductsResource;
  readonly prices: PricesResource;
  readonly customers: CustomersResource;
  readonly addresses: AddressesResource;
  readonly businesses: BusinessesResource;
  readonly customerPortalSessions: CustomerPortalSessionsResource;
  readonly usageBalanceUnits: UsageBalanceUnitsResource;
  readonly meters: MetersResource;
  readonly usageBalances: UsageBalancesResource;
  readonly usageEvents: UsageEventsResource;
  readonly subscriptions: SubscriptionsResource;
  readonly transactions: TransactionsResource;
  readonly adjustments: AdjustmentsResource;
  readonly taxSettings: TaxSettingsResource;
  readonly sellerDetails: SellerDetailsResource;
  readonly paymentMethods: PaymentMethodsResource;
  readonly checkoutSettings: CheckoutSettingsResource;
  readonly clientTokens: ClientTokensResource;
  readonly currencies: CurrenciesResource;
  readonly events: EventsResource;
  readonly eventTypes: EventTypesResource;
  readonly notificationSettings: NotificationSettingsResource;
  readonly notifications: NotificationsResource;
  readonly sandboxClock: SandboxClockResource;

  /** Webhook helpers; the same functions are exported on their own. */
  readonly webhooks = {
    verify: verifyWebhook,
    unmarshal: unmarshalWebhook,
    sign: signWebhookPayload,
    parseEvent,
  } as const;

  constructor(apiKey: string, options: DrawdownOptions = {}) {
    if (typeof apiKey !== 'string') throw new TypeError('The API key must be a string.');
    const { baseUrl, environment } = resolveBaseUrl(apiKey, options);
    this.baseUrl = normaliseBaseUrl(baseUrl);
    this.environment = environment;
    const runtime: Runtime = { ...systemRuntime, ...options.runtime };
    const http = new HttpClient({
      apiKey,
      baseUrl: this.baseUrl,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 2)),
      backoff: { baseDelayMs: 500, maxDelayMs: 8_000, ...options.retryBackoff },
      // Late-bound, so that a fetch replaced after construction (tests, instrumentation) is used.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      runtime,
      headers: options.headers ?? {},
    });
    const usagePolicy: UsageRetryPolicy = { ...DEFAULT_USAGE_RETRY, ...options.usageRetry };
    this.products = new ProductsResource(http);
    this.prices = new PricesResource(http);
    this.customers = new CustomersResource(http);
    this.addresses = new AddressesResource(http);
    this.businesses = new BusinessesResource(http);
    this.customerPortalSessions = new CustomerPortalSessionsResource(http);
    this.usageBalanceUnits = new UsageBalanceUnitsResource(http);
    this.meters = new MetersResource(http);
    this.usageBalances = new UsageBalancesResource(http);
    this.usageEvents = new UsageEventsResource(http, runtime, usagePolicy);
    this.subscriptions = new SubscriptionsResource(http);
    this.transactions = new TransactionsResource(http);
    this.adjustments = new AdjustmentsResource(http);
    this.taxSettings = new TaxSettingsResource(http);
    this.sellerDetails = new SellerDetailsResource(http);
    this.paymentMethods = new PaymentMethodsResource(http);
    this.checkoutSettings = new CheckoutSettingsResource(http);
    this.clientTokens = new ClientTokensResource(http);
    this.currencies = new CurrenciesResource(http, runtime);
    this.events = new EventsResource(http);
    this.eventTypes = new EventTypesResource(http);
    this.notificationSettings = new NotificationSettingsResource(http);
    this.notifications = new NotificationsResource(http);
    this.sandboxClock = new SandboxClockResource(http);
  }

  /**
   * Reports one usage event with the seed's client rules; see `usageEvents.report`.
   *
   * @example
   * const report = await drawdown.reportUsage({ eventKey: requestId, customerId, action: 'api_call', quantity: '1' });
   */
  reportUsage(event: UsageEventInput, options?: ReportUsageOptions): Promise<UsageReport> {
    return this.usageEvents.report(event, options);
  }
}
