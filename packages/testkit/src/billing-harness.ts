/**
 * @module
 * A real billing service on loopback ports for tests: both environments, a fresh database of
 * the chosen engine, and an early-access account with an all-permission key per environment.
 */
import {
  type Clock,
  createAccount,
  createApiKey,
  type Environment,
  type PaymentProvider,
  type Permission,
} from '@drawdown/billing-core';
import {
  type CoreServices,
  composeServices,
  type Logger,
  type RunningService,
  resolveServiceConfig,
  type ServiceConfig,
  startService,
} from '@drawdown/billing-service';
import { createTestStorage, type Engine } from './engines.js';

export interface BillingHarness {
  readonly engine: Engine;
  readonly liveUrl: string;
  readonly sandboxUrl: string;
  readonly accountId: string;
  readonly liveKey: string;
  readonly sandboxKey: string;
  readonly services: CoreServices;
  readonly service: RunningService;
  /** The harness's data folder and database URL, for processes started beside it. */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** Makes another key for the harness account (or another account). */
  createKey(options: {
    environment: Environment;
    permissions: readonly (Permission | 'all')[];
    accountId?: string;
    expiresAt?: string;
  }): Promise<string>;
  createAccount(options: { earlyAccess: boolean; name?: string }): Promise<string>;
  /** Points portal session and management URLs of both environments at `url` from now on (a portal started after the service). */
  setPortalUrl(url: string): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly engine?: Engine;
  /** Requests per client address (`--rate-limit`); off when absent. */
  readonly rateLimit?: string;
  /** Requests per API key (`--key-rate-limit`); off when absent. */
  readonly keyRateLimit?: string;
  /** Share rate-limit counts through this Redis (`--redis-url`). */
  readonly redisUrl?: string;
  /** Where the running service logs (access lines, notices); warnings and errors on standard error when absent. */
  readonly logger?: Logger;
  /** Behind one reverse proxy: count clients by the X-Forwarded-For entry it appended (`--trust-proxy`). */
  readonly trustProxy?: boolean;
  /** `--trusted-proxies`: a count, or addresses and CIDR ranges (ADR 1522). */
  readonly trustedProxies?: string;
  /** The base URLs advertised in pagination links (`--live-public-url`, `--sandbox-public-url`). */
  readonly livePublicUrl?: string;
  readonly sandboxPublicUrl?: string;
  /** Where portal session and management URLs point (`--live-portal-url`, `--sandbox-portal-url`). */
  readonly portalUrl?: string;
  /**
   * Let webhooks and simulations of both environments reach loopback receivers
   * (`--allow-private-webhooks`, ADR 1485). Off by default, as in a shipped service: every test
   * that delivers to a receiver on this machine turns it on.
   */
  readonly allowPrivateWebhooks?: boolean;
  /** `--simulation-budget` (ADR 1486), e.g. `runs-per-minute=3`; the shipped budget when absent. */
  readonly simulationBudget?: string;
  /** Webhook delivery tuning, for example a retry schedule of milliseconds. */
  readonly webhookDelivery?: ServiceConfig['webhookDelivery'];
  /** The service's wall clock, for tests that need exact instants (amounts prorated by time). */
  readonly clock?: Clock;
  /** Where the checkout page loads Stripe.js from (`--stripe-js-url`): a local stand-in in tests. */
  readonly stripeJsUrl?: string;
  /** The live environment's payment provider (ADR 1410), for provider adapters' tests. */
  readonly livePaymentProvider?: PaymentProvider;
  /** Check EU VAT ids with VIES at this base URL (`--vat-id-check vies --vies-url`; ADR 1437): a local stand-in. */
  readonly viesUrl?: string;
  /** `--vat-id-unavailable`: what happens with no VIES verdict. */
  readonly vatIdUnavailable?: 'format' | 'charge';
  /** The Stripe client's retries of an unanswered request (`--stripe-network-retries`); 2 when absent. */
  readonly stripeNetworkRetries?: number;
  /** `--vat-id-timeout-ms`. */
  readonly vatIdTimeoutMs?: number;
  /** `--document-workers` and `--document-queue` (ADR 1491): threads rendering PDFs, documents that may wait. */
  readonly documentWorkers?: number;
  readonly documentQueue?: number;
  /** `--sandbox-jump-steps` and `--sandbox-daily-steps`: the sandbox jump quotas (ADR 1487). */
  readonly sandboxJumpSteps?: number;
  readonly sandboxDailySteps?: number;
  /** `--smtp-url`: where live customer email goes (a local SMTP server in tests; ADR 1500). */
  readonly smtpUrl?: string;
  /** Email delivery tuning, for example retry delays of milliseconds. */
  readonly emailDelivery?: ServiceConfig['emailDelivery'];
  /** `--sqlite-wal-limit-mb` (ADR 1488). */
  readonly sqliteWalLimitMb?: number;
  /** `--webhook-source-ips` (ADR 1476): what `GET /ips` lists. */
  readonly webhookSourceIps?: string;
  /**
   * The tax settings of the accounts the harness makes (ADR 1439). `none` (the default): an
   * explicit "no tax" choice recorded in both environments (`rate_source: account`,
   * `default_rate: "0"`, as `PATCH /tax-settings` records it), so totals are the prices alone and live charges are allowed, as the
   * suites written before ADR 1439 expect. `unset`: nothing recorded, as in a new installation:
   * the sandbox computes tax by location and live charges wait for a choice.
   */
  readonly tax?: 'none' | 'unset';
}

export async function startBillingHarness(options: HarnessOptions = {}): Promise<BillingHarness> {
  const engine = options.engine ?? 'sqlite';
  // The service migrates on starting: on PostgreSQL a copy of the migrated template saves it the work.
  const storage = await createTestStorage(engine, { migrated: true });
  const config = resolveServiceConfig(
    {
      'data-dir': storage.dataDir,
      'live-port': '0',
      'sandbox-port': '0',
      'rate-limit': options.rateLimit ?? 'off',
      'key-rate-limit': options.keyRateLimit ?? 'off',
      ...(options.redisUrl ? { 'redis-url': options.redisUrl } : {}),
      // Warnings and errors only: access lines for every test request would bury them.
      'log-level': 'warn',
      ...(options.livePublicUrl ? { 'live-public-url': options.livePublicUrl } : {}),
      ...(options.sandboxPublicUrl ? { 'sandbox-public-url': options.sandboxPublicUrl } : {}),
      ...(options.portalUrl ? { 'live-portal-url': options.portalUrl, 'sandbox-portal-url': options.portalUrl } : {}),
      ...(storage.databaseUrl ? { 'database-url': storage.databaseUrl } : {}),
      ...(options.allowPrivateWebhooks ? { 'allow-private-webhooks': true } : {}),
      ...(options.simulationBudget ? { 'simulation-budget': options.simulationBudget } : {}),
      ...(options.trustProxy ? { 'trust-proxy': true } : {}),
      ...(options.trustedProxies ? { 'trusted-proxies': options.trustedProxies } : {}),
      ...(options.stripeJsUrl ? { 'stripe-js-url': options.stripeJsUrl } : {}),
      ...(options.viesUrl ? { 'vat-id-check': 'vies', 'vies-url': options.viesUrl } : {}),
      ...(options.vatIdUnavailable ? { 'vat-id-unavailable': options.vatIdUnavailable } : {}),
      ...(options.stripeNetworkRetries === undefined
        ? {}
        : { 'stripe-network-retries': String(options.stripeNetworkRetries) }),
      ...(options.vatIdTimeoutMs ? { 'vat-id-timeout-ms': String(options.vatIdTimeoutMs) } : {}),
      ...(options.documentWorkers ? { 'document-workers': String(options.documentWorkers) } : {}),
      ...(options.documentQueue ? { 'document-queue': String(options.documentQueue) } : {}),
      ...(options.sandboxJumpSteps ? { 'sandbox-jump-steps': String(options.sandboxJumpSteps) } : {}),
      ...(options.sandboxDailySteps ? { 'sandbox-daily-steps': String(options.sandboxDailySteps) } : {}),
      ...(options.smtpUrl ? { 'smtp-url': options.smtpUrl } : {}),
      ...(options.sqliteWalLimitMb ? { 'sqlite-wal-limit-mb': String(options.sqliteWalLimitMb) } : {}),
      ...(options.webhookSourceIps ? { 'webhook-source-ips': options.webhookSourceIps } : {}),
    },
    {},
  );
  const services = await composeServices(
    {
      ...config,
      webhookDelivery: options.webhookDelivery,
      ...(options.clock ? { wallClock: options.clock } : {}),
    },
    options.livePaymentProvider ? { livePaymentProvider: options.livePaymentProvider } : {},
  );
  // The service reads the portal URLs per request, so a portal started later can be pointed at.
  const portal = { live: config.livePortalUrl, sandbox: config.sandboxPortalUrl };
  const service = await startService(
    services,
    {
      ...config,
      get livePortalUrl() {
        return portal.live;
      },
      get sandboxPortalUrl() {
        return portal.sandbox;
      },
      webhookDelivery: options.webhookDelivery,
      emailDelivery: options.emailDelivery,
    },
    options.logger ? { logger: options.logger } : {},
  );
  const account = await createAccount(services, { name: 'Test account', earlyAccess: true });
  const key = async (input: {
    environment: Environment;
    permissions: readonly string[];
    accountId?: string;
    expiresAt?: string;
  }) =>
    (
      await createApiKey(services, {
        accountId: input.accountId ?? account.id,
        environment: input.environment,
        name: 'test key',
        permissions: input.permissions,
        expiresAt: input.expiresAt ?? null,
      })
    ).token;
  const liveKey = await key({ environment: 'live', permissions: ['all'] });
  const sandboxKey = await key({ environment: 'sandbox', permissions: ['all'] });
  // Every account the harness makes records "no tax" in both environments unless `tax: 'unset'`.
  const chooseTax = async (accountId: string) => {
    if ((options.tax ?? 'none') !== 'none') return;
    const made = await services.useCases.requireAccount(accountId);
    for (const environment of ['live', 'sandbox'] as const) {
      await services.useCases.updateTaxSettings(
        { account: made, scope: { accountId, environment } },
        { rateSource: 'account', defaultRate: '0' },
      );
    }
  };
  await chooseTax(account.id);
  return {
    engine,
    liveUrl: service.liveUrl,
    sandboxUrl: service.sandboxUrl,
    accountId: account.id,
    liveKey,
    sandboxKey,
    services,
    service,
    dataDir: storage.dataDir,
    databaseUrl: storage.databaseUrl,
    createKey: (input) => key(input),
    setPortalUrl: (url) => {
      portal.live = url.replace(/\/+$/, '');
      portal.sandbox = portal.live;
    },
    createAccount: async ({ earlyAccess, name }) => {
      const made = await createAccount(services, { name: name ?? 'Other account', earlyAccess });
      await chooseTax(made.id);
      return made.id;
    },
    close: async () => {
      await service.close();
      await storage.dispose();
    },
  };
}
