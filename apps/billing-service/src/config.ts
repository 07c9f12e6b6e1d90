/**
 * @module
 * Service configuration from one schema: each setting has a flag, an environment variable, a
 * default and a description. Flags win over variables, variables over defaults; it is read once.
 * The operator's table in `docs/configuration.md` is generated from this schema (and a test
 * keeps it current), and the CLI's options come from it too.
 */

import { resolve } from 'node:path';
import { DEFAULT_SIMULATION_BUDGET, type SimulationBudget } from '@drawdown/billing-core';
import { type ProxyTrust, parseProxyTrust } from '@drawdown/http-kit';
import { parseRateLimit, type RateLimit } from './http/rate-limiter.js';
import { DEFAULT_VIES_URL } from './infrastructure/vies-verifier.js';
import { LOG_LEVELS, type LogLevel } from './operations/logger.js';
import type { ListenAddress } from './operations/operations-server.js';
import {
  DEFAULT_DOCUMENT_QUEUE,
  DEFAULT_DOCUMENT_WORKER_MEMORY_MB,
  defaultDocumentThreads,
} from './rendering/document-pool.js';
import type { EmailDeliveryOptions } from './workers/email-delivery/email-worker.js';
import type { WebhookDeliveryOptions } from './workers/webhook-delivery/delivery-worker.js';

export interface ServiceConfig {
  readonly host: string;
  readonly livePort: number;
  readonly sandboxPort: number;
  readonly dataDir: string;
  /** A postgres:// URL; absent means SQLite in the data folder. */
  readonly databaseUrl: string | undefined;
  /** Most connections the PostgreSQL pool opens (per process). */
  readonly databasePoolSize: number;
  readonly databaseConnectTimeoutMs: number;
  readonly databaseStatementTimeoutMs: number;
  /** Advertised in pagination links; absent means the address the server is bound to. */
  readonly livePublicUrl: string | undefined;
  readonly sandboxPublicUrl: string | undefined;
  /** Where customers reach the billing portal, per environment: portal session and management URLs (ADR 1440). */
  /** Null: no portal configured; the environment's own `/portal` answers `customer_portal_not_configured` (ADR 1472). */
  readonly livePortalUrl: string | null;
  readonly sandboxPortalUrl: string | null;
  /** Where the hosted checkout loads Stripe.js from (ADR 1424); its origin is what the page's CSP allows. */
  readonly stripeJsUrl: string;
  /** Check EU VAT ids with VIES before reverse charge (`vies`), or by their format alone (`off`; ADR 1437). */
  readonly vatIdCheck: 'vies' | 'off';
  /** The VIES REST API's base URL (a local stand-in in tests). */
  readonly viesUrl: string;
  /** Where live customer email is sent (`smtp://` or `smtps://`, auth and TLS from the URL; ADR 1500); absent, live email waits. */
  readonly smtpUrl: string | undefined;
  /** How long a VIES verdict is reused before the id is checked again. */
  readonly vatIdCacheDays: number;
  /** How long one VIES check may take before it counts as unavailable. */
  readonly vatIdTimeoutMs: number;
  /** With VIES unavailable and no earlier verdict: reverse charge on the format (`format`) or charge VAT (`charge`). */
  readonly vatIdUnavailable: 'format' | 'charge';
  /** How many times the Stripe client retries a request whose answer did not come (ADR 1421). */
  readonly stripeNetworkRetries: number;
  /** Requests per client address and window, for requests without a key that authenticates (ADR 1480). */
  readonly rateLimit: RateLimit | null;
  /** Requests per API key and window, for requests whose key authenticates (ADR 1480). */
  readonly keyRateLimit: RateLimit | null;
  readonly trustProxy: boolean;
  /**
   * Proxies in front whose `X-Forwarded-For` entries are trusted: a count, 0 when none was set
   * (then `trustProxy` decides), or their address ranges (ADR 1522).
   */
  readonly trustedProxies: ProxyTrust;
  /**
   * How long an idle keep-alive connection of the live and sandbox APIs stays open: longer than a
   * load balancer's idle timeout, so it never sends a request on a socket the service is closing.
   */
  readonly keepAliveTimeoutMs: number;
  /** Shares rate-limit counts between processes; absent means counting in process memory. */
  readonly redisUrl: string | undefined;
  /** How often the drawdown worker looks for events accepted by other processes. */
  readonly drawdownPollMs: number;
  /** How often the scheduler looks for due renewals and scheduled changes. */
  readonly schedulerPollMs: number;
  /** How often webhook delivery looks for due notifications written by other processes. */
  readonly webhookPollMs: number;
  /** Deliver webhooks (live and sandbox) to loopback, private and link-local destinations too (ADR 1485). */
  readonly allowPrivateWebhooks: boolean;
  /** The IPv4 CIDRs webhooks leave from, as `GET /ips` lists them (ADR 1476); empty when unset. */
  readonly webhookSourceIps: readonly string[];
  /** What webhook simulations may send per account environment (ADR 1486); null turns the budget off. */
  readonly simulationBudget: SimulationBudget | null;
  /** Where the operations endpoints (health, readiness, metrics, version) listen; null turns them off. */
  readonly opsAddress: ListenAddress | null;
  readonly logLevel: LogLevel;
  /** One access line per this many usage events answered 202; every other request always has its line (ADR 0730). */
  readonly accessLogUsageSample: number;
  /** An OTLP/HTTP traces endpoint (`http://collector:4318/v1/traces`); absent means no tracing. */
  readonly otelTracesEndpoint: string | undefined;
  /** How long a shutdown waits for in-flight requests and worker batches before cutting them. */
  readonly shutdownTimeoutMs: number;
  /** Worker threads rendering PDFs and decoding logos (ADR 1491). */
  readonly documentWorkers: number;
  /** Documents that may wait for a document thread before `documents_busy` (503). */
  readonly documentQueue: number;
  /** Each document thread's JavaScript heap ceiling, in MiB. */
  readonly documentWorkerMemoryMb: number;
  /** Apply pending migrations at start instead of refusing to serve an unmigrated database. */
  readonly migrateOnStart: boolean;
  /** The most due steps (renewals, scheduled changes, payment retries) one sandbox jump may run (ADR 1487). */
  readonly sandboxJumpSteps: number;
  /** The most due steps one account's sandbox jumps may run in a UTC day (ADR 1487). */
  readonly sandboxDailySteps: number;
  /** The SQLite WAL file's size limit, in MiB: what it is cut back to after bursts (ADR 1488). */
  readonly sqliteWalLimitMb: number;
  /** Tuning of webhook delivery; absent fields take the defaults (tests use fast retry schedules). */
  readonly webhookDelivery?: Partial<WebhookDeliveryOptions> | undefined;
  /** Email delivery tuning (tests: short retries); the shipped defaults when absent. */
  readonly emailDelivery?: Partial<EmailDeliveryOptions> | undefined;
}

/** 1,200 requests per 10 seconds per client address, for requests without a key that authenticates (ADR 0007, ADR 1480). */
export const DEFAULT_RATE_LIMIT = '1200/10s';

/**
 * 300,000 requests per 10 seconds per API key: 30,000 a second, about three times the most one
 * service process has accepted usage events at on these machines (docs/benchmarks.md), so one
 * backend posting an event per request is never throttled below the service's own rate; still a
 * wall against a runaway loop (ADR 1480).
 */
export const DEFAULT_KEY_RATE_LIMIT = '300000/10s';

export type FlagValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

type SettingKey = Exclude<keyof ServiceConfig, 'webhookDelivery' | 'emailDelivery'>;

export interface Setting<K extends SettingKey = SettingKey> {
  readonly key: K;
  /** The long option, without its dashes. */
  readonly flag: string;
  readonly variable: string;
  /** `boolean` settings are flags without a value (`--trust-proxy`) or the variable set to `true`. */
  readonly kind: 'string' | 'boolean';
  /** The default as the operator would write it; undefined means unset. */
  readonly fallback: string | undefined;
  /** A placeholder for the value in the usage text. */
  readonly placeholder?: string;
  readonly description: string;
  parse(text: string | undefined, name: string): ServiceConfig[K];
}

function port(text: string | undefined, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65_535)
    throw new Error(`${name} must be a port number; got ${text}`);
  return value;
}

function positiveInteger(unit: string) {
  return (text: string | undefined, name: string): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${name} must be a positive number of ${unit}; got ${text}`);
    return value;
  };
}

const optionalText = (text: string | undefined) => (text === '' ? undefined : text);

function smtpUrl(text: string | undefined, name: string): string | undefined {
  if (text === undefined || text === '') return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== 'smtp:' && url?.protocol !== 'smtps:') {
    throw new Error(`${name} must be an smtp:// or smtps:// URL; got ${text}`);
  }
  return text;
}

function httpUrl(text: string | undefined, name: string): string | undefined {
  if (text === undefined || text === '') return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(`${name} must be an http:// or https:// URL; got ${text}`);
  }
  return text;
}
const yes = (text: string | undefined) => text === 'true';

/**
 * A comma-separated list of IPv4 addresses or CIDRs (`203.0.113.7`, `198.51.100.0/24`) in their
 * canonical form, a bare address as `/32`, repeats dropped; empty for an unset or empty value.
 */
export function ipv4Cidrs(text: string | undefined, name: string): readonly string[] {
  const cidrs: string[] = [];
  for (const item of (text ?? '').split(',').map((part) => part.trim())) {
    if (item === '') continue;
    const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(item);
    const octets = match ? match.slice(1, 5).map(Number) : [];
    const prefix = match?.[5] === undefined ? 32 : Number(match[5]);
    if (!match || octets.some((octet) => octet > 255) || prefix > 32 || /(^|\.)0\d/.test(item.split('/')[0] ?? '')) {
      throw new Error(
        `${name} must be IPv4 addresses or CIDRs separated by commas (203.0.113.7, 198.51.100.0/24); got ${item}`,
      );
    }
    const address = octets.reduce((value, octet) => value * 256 + octet, 0);
    const size = 2 ** (32 - prefix);
    if (address % size !== 0) {
      throw new Error(`${name}: ${item} has host bits set; write the network address of the /${prefix}`);
    }
    const cidr = `${octets.join('.')}/${prefix}`;
    if (!cidrs.includes(cidr)) cidrs.push(cidr);
  }
  return cidrs;
}

/** Stripe.js, as Stripe documents it must be loaded: from js.stripe.com, never bundled or self-hosted. */
export const DEFAULT_STRIPE_JS_URL = 'https://js.stripe.com/v3/';

function stripeJsUrl(text: string | undefined, name: string): string {
  const value = text ?? DEFAULT_STRIPE_JS_URL;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (
    (url?.protocol !== 'https:' && url?.protocol !== 'http:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.hash !== ''
  ) {
    throw new Error(`${name} must be an http or https URL without credentials or fragment; got ${text}`);
  }
  return value;
}

function choice<const T extends string>(values: readonly T[], fallback: T) {
  return (text: string | undefined, name: string): T => {
    const value = text ?? fallback;
    if (!(values as readonly string[]).includes(value)) {
      throw new Error(`${name} must be one of ${values.join(', ')}; got ${text}`);
    }
    return value as T;
  };
}

function portalUrl(text: string | undefined, name: string): string | null {
  if (text === undefined || text === '') return null;
  const value = text.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http or https URL; got ${text}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new Error(`${name} must be an http or https URL without a query or fragment; got ${text}`);
  }
  return value;
}

function listenAddress(text: string | undefined, name: string): ListenAddress | null {
  if (text === undefined || text === 'off') return null;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(text);
  if (!match) throw new Error(`${name} must be HOST:PORT or off; got ${text}`);
  return { host: match[1] ?? match[2] ?? '', port: port(match[3], name) };
}

const BUDGET_KEYS = {
  'runs-per-minute': 'runsPerMinute',
  'runs-per-hour': 'runsPerHour',
  'events-per-run': 'eventsPerRun',
  'events-per-day': 'eventsPerDay',
  'bytes-per-day': 'bytesPerDay',
} as const satisfies Record<string, keyof SimulationBudget>;

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, KiB: 1024, MiB: 1024 * 1024, GiB: 1024 * 1024 * 1024 };

/** The shipped budget as the setting writes it. */
export const DEFAULT_SIMULATION_BUDGET_TEXT = Object.entries(BUDGET_KEYS)
  .map(([name, key]) =>
    key === 'bytesPerDay'
      ? `${name}=${DEFAULT_SIMULATION_BUDGET[key] / (1024 * 1024)}MiB`
      : `${name}=${DEFAULT_SIMULATION_BUDGET[key]}`,
  )
  .join(',');

/** `runs-per-minute=10,bytes-per-day=20MiB,…` (limits not named keep their default), or `off`. */
function simulationBudget(text: string | undefined, name: string): SimulationBudget | null {
  const value = text ?? DEFAULT_SIMULATION_BUDGET_TEXT;
  if (value === 'off') return null;
  const budget: Record<keyof SimulationBudget, number> = { ...DEFAULT_SIMULATION_BUDGET };
  for (const part of value.split(',')) {
    const match = /^\s*([a-z-]+)=(\d+)(KiB|MiB|GiB)?\s*$/.exec(part);
    const key = match ? BUDGET_KEYS[match[1] as keyof typeof BUDGET_KEYS] : undefined;
    const unit = match?.[3] ?? '';
    if (!match || key === undefined || (unit !== '' && key !== 'bytesPerDay')) {
      throw new Error(
        `${name} must be off or a comma-separated list of ${Object.keys(BUDGET_KEYS).join(', ')} with positive whole numbers (bytes-per-day may end in KiB, MiB or GiB); got ${part}`,
      );
    }
    const limit = Number(match[2]) * (BYTE_UNITS[unit] ?? 1);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`${name}: ${part} must be a positive whole number`);
    budget[key] = limit;
  }
  return budget;
}

function setting<K extends SettingKey>(definition: Setting<K>): Setting<K> {
  return definition;
}

/** Every setting, in the order the documentation lists them. */
export const SETTINGS = [
  setting({
    key: 'host',
    flag: 'host',
    variable: 'DRAWDOWN_HOST',
    kind: 'string',
    fallback: '127.0.0.1',
    placeholder: 'HOST',
    description: 'Interface the live and sandbox APIs listen on.',
    parse: (text) => text ?? '127.0.0.1',
  }),
  setting({
    key: 'livePort',
    flag: 'live-port',
    variable: 'DRAWDOWN_LIVE_PORT',
    kind: 'string',
    fallback: '8080',
    placeholder: 'PORT',
    description: 'Live API port (0 picks a free one).',
    parse: port,
  }),
  setting({
    key: 'sandboxPort',
    flag: 'sandbox-port',
    variable: 'DRAWDOWN_SANDBOX_PORT',
    kind: 'string',
    fallback: '8081',
    placeholder: 'PORT',
    description: 'Sandbox API port (0 picks a free one).',
    parse: port,
  }),
  setting({
    key: 'opsAddress',
    flag: 'ops-address',
    variable: 'DRAWDOWN_OPS_ADDRESS',
    kind: 'string',
    fallback: '127.0.0.1:8088',
    placeholder: 'HOST:PORT|off',
    description:
      'Where `/livez`, `/readyz`, `/metrics` and `/version` listen, apart from the APIs; `off` turns them off. They take no key: keep them off public interfaces.',
    parse: listenAddress,
  }),
  setting({
    key: 'dataDir',
    flag: 'data-dir',
    variable: 'DRAWDOWN_DATA_DIR',
    kind: 'string',
    fallback: 'data',
    placeholder: 'DIR',
    description:
      'Folder of the SQLite database (`drawdown.sqlite`), used when no database URL is set. The database, its `-wal` and `-shm` are created readable by their owner only (0600), and narrowed to 0600 when an older build left them readable by others.',
    parse: (text) => resolve(text ?? 'data'),
  }),
  setting({
    key: 'databaseUrl',
    flag: 'database-url',
    variable: 'DRAWDOWN_DATABASE_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description:
      'A `postgres://` URL: PostgreSQL instead of SQLite. It may name several hosts in libpq’s form, `postgres://user:password@db1:5432,db2:5432/drawdown?target_session_attrs=read-write`: each connection goes to the host last found writable, and a host that refuses, times out or is a standby sends it to the next (ADR 1520).',
    parse: (text, name) => {
      const url = optionalText(text);
      if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) throw new Error(`${name} must be a postgres:// URL`);
      return url;
    },
  }),
  setting({
    key: 'databasePoolSize',
    flag: 'database-pool-size',
    variable: 'DRAWDOWN_DATABASE_POOL_SIZE',
    kind: 'string',
    fallback: '10',
    placeholder: 'N',
    description: 'Most PostgreSQL connections one process opens (1 to 1000).',
    parse: (text, name) => {
      const connections = positiveInteger('connections')(text, name);
      if (connections > 1000)
        throw new Error(`${name} must be a positive number of connections up to 1000; got ${text}`);
      return connections;
    },
  }),
  setting({
    key: 'databaseConnectTimeoutMs',
    flag: 'database-connect-timeout-ms',
    variable: 'DRAWDOWN_DATABASE_CONNECT_TIMEOUT_MS',
    kind: 'string',
    fallback: '5000',
    placeholder: 'MS',
    description:
      'PostgreSQL: how long opening one connection may take before that host counts as down and the next host of the URL is tried (ADR 1520).',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'databaseStatementTimeoutMs',
    flag: 'database-statement-timeout-ms',
    variable: 'DRAWDOWN_DATABASE_STATEMENT_TIMEOUT_MS',
    kind: 'string',
    fallback: '60000',
    placeholder: 'MS',
    description:
      'PostgreSQL: the server’s `statement_timeout` for every statement the service runs; the client stops waiting 2 s later, which is what ends a statement on a hung server (ADR 1520). `0` turns both off. `drawdown migrate` and `serve --migrate` run migrations without it.',
    parse: (text, name) => {
      if (text === '0') return 0;
      return positiveInteger('milliseconds')(text, name);
    },
  }),
  setting({
    key: 'sqliteWalLimitMb',
    flag: 'sqlite-wal-limit-mb',
    variable: 'DRAWDOWN_SQLITE_WAL_LIMIT_MB',
    kind: 'string',
    fallback: '64',
    placeholder: 'MIB',
    description:
      "SQLite only: the write-ahead log file's size limit. After a burst of writes (a long sandbox jump, a flood of usage events) `serve` empties the WAL file once everything in it is copied into the database, and SQLite cuts it back to this size whenever it starts the log again, so the WAL never keeps a burst's size (ADR 1488). During a burst it may grow past it until the next checkpoint.",
    parse: (text, name) => {
      const mib = positiveInteger('MiB')(text ?? '64', name);
      if (mib > 65_536) throw new Error(`${name} must be a positive number of MiB up to 65536; got ${text}`);
      return mib;
    },
  }),
  setting({
    key: 'migrateOnStart',
    flag: 'migrate',
    variable: 'DRAWDOWN_MIGRATE',
    kind: 'boolean',
    fallback: 'false',
    description:
      '`serve` applies pending migrations before it starts; without it, `serve` refuses an unmigrated database (run `drawdown migrate`).',
    parse: yes,
  }),
  setting({
    key: 'livePublicUrl',
    flag: 'live-public-url',
    variable: 'DRAWDOWN_LIVE_PUBLIC_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description: 'Base URL advertised in live pagination and invoice links (default: the bound address).',
    parse: optionalText,
  }),
  setting({
    key: 'sandboxPublicUrl',
    flag: 'sandbox-public-url',
    variable: 'DRAWDOWN_SANDBOX_PUBLIC_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description: 'Base URL advertised in sandbox links (default: the bound address).',
    parse: optionalText,
  }),
  setting({
    key: 'livePortalUrl',
    flag: 'live-portal-url',
    variable: 'DRAWDOWN_LIVE_PORTAL_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description:
      "Where live customers reach the billing portal (where `@drawdown/billing-portal` is mounted): customer portal session URLs and subscriptions' `management_urls` point here. Unset: portal sessions are refused with `customer_portal_not_configured` and `management_urls` lead to the live address's own `/portal`, which answers that code (ADR 1472).",
    parse: portalUrl,
  }),
  setting({
    key: 'sandboxPortalUrl',
    flag: 'sandbox-portal-url',
    variable: 'DRAWDOWN_SANDBOX_PORTAL_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description:
      'Where sandbox customers reach the billing portal (`npm start` points it at the portal demo it serves). Unset: as for live, on the sandbox address (ADR 1472).',
    parse: portalUrl,
  }),
  setting({
    key: 'stripeJsUrl',
    flag: 'stripe-js-url',
    variable: 'DRAWDOWN_STRIPE_JS_URL',
    kind: 'string',
    fallback: DEFAULT_STRIPE_JS_URL,
    placeholder: 'URL',
    description:
      "Where the hosted checkout loads Stripe.js for accounts paying through Stripe. The page's Content-Security-Policy allows Stripe's documented origins for the default, and only this URL's origin otherwise (a local stand-in in tests).",
    parse: stripeJsUrl,
  }),
  setting({
    key: 'vatIdCheck',
    flag: 'vat-id-check',
    variable: 'DRAWDOWN_VAT_ID_CHECK',
    kind: 'string',
    fallback: 'off',
    placeholder: 'vies|off',
    description:
      "`vies` checks a business's EU VAT id with the EU's VIES service before reverse charge applies, outside any database transaction, and stores the verdict (ADR 1437); an id VIES says is invalid is charged VAT. `off` (the default: it needs outbound network and sends buyers' VAT ids to VIES) keeps the offline format check alone.",
    parse: choice(['vies', 'off'] as const, 'off'),
  }),
  setting({
    key: 'viesUrl',
    flag: 'vies-url',
    variable: 'DRAWDOWN_VIES_URL',
    kind: 'string',
    fallback: DEFAULT_VIES_URL,
    placeholder: 'URL',
    description:
      'The VIES REST API base; Drawdown posts to `{base}/check-vat-number`. Point it at a proxy or a stand-in speaking the same format.',
    parse: (text, name) => httpUrl(text ?? DEFAULT_VIES_URL, name) ?? DEFAULT_VIES_URL,
  }),
  setting({
    key: 'vatIdCacheDays',
    flag: 'vat-id-cache-days',
    variable: 'DRAWDOWN_VAT_ID_CACHE_DAYS',
    kind: 'string',
    fallback: '30',
    placeholder: 'DAYS',
    description:
      "How long a VIES verdict (valid or invalid) is reused before the id is checked again; renewals within it do not call VIES. Measured on each environment's clock.",
    parse: positiveInteger('days'),
  }),
  setting({
    key: 'vatIdTimeoutMs',
    flag: 'vat-id-timeout-ms',
    variable: 'DRAWDOWN_VAT_ID_TIMEOUT_MS',
    kind: 'string',
    fallback: '5000',
    placeholder: 'MS',
    description: 'How long one VIES check may take before VIES counts as unavailable.',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'stripeNetworkRetries',
    flag: 'stripe-network-retries',
    variable: 'DRAWDOWN_STRIPE_NETWORK_RETRIES',
    kind: 'string',
    fallback: '2',
    placeholder: 'N',
    description:
      "How many times the Stripe client sends a request again, with Stripe's exponential back-off, when the connection fails or Stripe answers 409, 429 or 5xx (0 to 5). Every retry carries Drawdown's own idempotency key, so Stripe acts at most once; a request still unanswered after the last retry is settled by the payment recovery step (ADR 1426).",
    parse: (text, name) => {
      const value = Number(text);
      if (!/^\d$/.test(text ?? '') || value > 5)
        throw new Error(`${name} must be a whole number from 0 to 5; got ${text}`);
      return value;
    },
  }),
  setting({
    key: 'vatIdUnavailable',
    flag: 'vat-id-unavailable',
    variable: 'DRAWDOWN_VAT_ID_UNAVAILABLE',
    kind: 'string',
    fallback: 'format',
    placeholder: 'format|charge',
    description:
      'When VIES cannot answer and no earlier verdict is stored: `format` reverse charges a well-formed id as the format check would, and records it as unverified; `charge` charges VAT until VIES confirms the id. A stored verdict, however old, is kept while VIES is down. Renewals never fail because VIES is down.',
    parse: choice(['format', 'charge'] as const, 'format'),
  }),
  setting({
    key: 'rateLimit',
    flag: 'rate-limit',
    variable: 'DRAWDOWN_RATE_LIMIT',
    kind: 'string',
    fallback: DEFAULT_RATE_LIMIT,
    placeholder: 'N/WINDOW|off',
    description:
      'Requests per client address and window for requests without an API key that authenticates (no key, a refused key; the public checkout, invoice and webhook routes), e.g. `1200/10s`, `240/1m`; `off` turns this limit off.',
    parse: (text) => parseRateLimit(text ?? DEFAULT_RATE_LIMIT),
  }),
  setting({
    key: 'keyRateLimit',
    flag: 'key-rate-limit',
    variable: 'DRAWDOWN_KEY_RATE_LIMIT',
    kind: 'string',
    fallback: DEFAULT_KEY_RATE_LIMIT,
    placeholder: 'N/WINDOW|off',
    description:
      'Requests per API key and window for requests whose key authenticates, wherever they come from (a backend, the billing portal); they never count against an address. The default lets one backend post usage events at the service’s full rate; raise it when several processes share the count through Redis. `off` turns this limit off.',
    parse: (text) => parseRateLimit(text ?? DEFAULT_KEY_RATE_LIMIT),
  }),
  setting({
    key: 'trustProxy',
    flag: 'trust-proxy',
    variable: 'DRAWDOWN_TRUST_PROXY',
    kind: 'boolean',
    fallback: 'false',
    description:
      'Behind one reverse proxy: the client address (counted by `--rate-limit`, written in access lines) is the `X-Forwarded-For` entry that proxy appended (the right-most), never one the client wrote.',
    parse: yes,
  }),
  setting({
    key: 'trustedProxies',
    flag: 'trusted-proxies',
    variable: 'DRAWDOWN_TRUSTED_PROXIES',
    kind: 'string',
    fallback: '0',
    placeholder: 'N|RANGES',
    description:
      "Behind N reverse proxies in a row (a cloud balancer, then Caddy: 2): the client address is the `X-Forwarded-For` entry the outermost of them appended, the N-th from the right; at most 10. Or the proxies' addresses and CIDR ranges, comma-separated (`10.0.0.0/8,fd00::/8`): a request from one of them has its client in the first `X-Forwarded-For` entry from the right that is not one of them, however many there are (ADR 1522). Overrides `--trust-proxy` (which is 1) unless 0.",
    parse: (text, name) => {
      try {
        return parseProxyTrust(text ?? '0');
      } catch (error) {
        throw new Error(
          `${name} must be a number of proxies (0 to 10) or addresses and CIDR ranges: ${(error as Error).message}`,
        );
      }
    },
  }),
  setting({
    key: 'smtpUrl',
    flag: 'smtp-url',
    variable: 'DRAWDOWN_SMTP_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description:
      'The SMTP server live customer email goes to: `smtps://user:password@host:465` (TLS from the start) or `smtp://user:password@host:587` (STARTTLS when offered; `?requireTLS=true` insists on it). Without it live email jobs wait, pending, until one is set. The sandbox never sends: it captures (`GET /emails`).',
    parse: smtpUrl,
  }),
  setting({
    key: 'redisUrl',
    flag: 'redis-url',
    variable: 'DRAWDOWN_REDIS_URL',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description: 'Share rate-limit counts between processes through Redis.',
    parse: optionalText,
  }),
  setting({
    key: 'otelTracesEndpoint',
    flag: 'otel-traces-endpoint',
    variable: 'DRAWDOWN_OTEL_TRACES_ENDPOINT',
    kind: 'string',
    fallback: undefined,
    placeholder: 'URL',
    description:
      'Export OpenTelemetry spans to this OTLP/HTTP traces endpoint, e.g. `http://collector:4318/v1/traces`: one per API request (continuing an incoming `traceparent`), per worker batch that did work, per webhook delivery attempt and per database transaction; unset: no tracing.',
    parse: httpUrl,
  }),
  setting({
    key: 'allowPrivateWebhooks',
    flag: 'allow-private-webhooks',
    variable: 'DRAWDOWN_ALLOW_PRIVATE_WEBHOOKS',
    kind: 'boolean',
    fallback: 'false',
    description:
      'Let webhooks and webhook simulations, live and sandbox alike, reach loopback, private-network and link-local destinations (`127.0.0.1`, `::1`, `10.0.0.0/8`, `169.254.169.254`, and names resolving to them at delivery). Off, such destinations are refused when saved and at every delivery (`notification_destination_not_allowed`, ADR 1485). Turn it on only where every API key holder may reach the service’s own network: local development, tests, `npm start`’s demo (which turns it on).',
    parse: yes,
  }),
  setting({
    key: 'webhookSourceIps',
    flag: 'webhook-source-ips',
    variable: 'DRAWDOWN_WEBHOOK_SOURCE_IPS',
    kind: 'string',
    fallback: undefined,
    placeholder: 'CIDRS',
    description:
      'The IPv4 addresses or CIDRs webhooks of both environments leave from (your egress or NAT addresses), comma-separated: `GET /ips` lists them as `ipv4_cidrs` for receivers that allow-list senders (ADR 1476). Unset: an empty list. Drawdown cannot find these out itself; say what your network gives it.',
    parse: ipv4Cidrs,
  }),
  setting({
    key: 'simulationBudget',
    flag: 'simulation-budget',
    variable: 'DRAWDOWN_SIMULATION_BUDGET',
    kind: 'string',
    fallback: DEFAULT_SIMULATION_BUDGET_TEXT,
    placeholder: 'LIMITS|off',
    description:
      'What webhook simulations may send, per account and environment (ADR 1486): runs and replays per minute and per hour, events per run, and events and webhook body bytes per rolling 24 hours, counted on the wall clock. Limits left out keep their default; `off` removes the budget. A run or replay over it is refused with 429 `simulation_budget_exceeded` (and `Retry-After` when waiting helps), and nothing is sent.',
    parse: simulationBudget,
  }),
  setting({
    key: 'sandboxJumpSteps',
    flag: 'sandbox-jump-steps',
    variable: 'DRAWDOWN_SANDBOX_JUMP_STEPS',
    kind: 'string',
    fallback: '1000',
    placeholder: 'N',
    description:
      'The most renewals, scheduled changes and payment retries one sandbox clock jump may run (`POST /sandbox-clock/advance`, `drawdown clock advance`). A jump is counted before anything changes; a longer one is refused with `sandbox_jump_too_large` and the clock stays where it was. Each step writes a transaction, its events and ledger entries (about 30 KB on SQLite): 1,000 is ten years of eight monthly subscriptions, or one year of 83 (ADR 1487).',
    parse: (text, name) => {
      const steps = positiveInteger('steps')(text ?? '1000', name);
      if (steps > 10_000_000) throw new Error(`${name} must be a positive number of steps up to 10000000; got ${text}`);
      return steps;
    },
  }),
  setting({
    key: 'sandboxDailySteps',
    flag: 'sandbox-daily-steps',
    variable: 'DRAWDOWN_SANDBOX_DAILY_STEPS',
    kind: 'string',
    fallback: '5000',
    placeholder: 'N',
    description:
      "The most renewals, scheduled changes and payment retries one account's sandbox clock jumps may run in a UTC day of the wall clock, counted as they run. A jump that would not fit in what is left is refused with `sandbox_daily_quota_exceeded` (429) and the clock stays where it was; the count starts again at 00:00 UTC (ADR 1487).",
    parse: (text, name) => {
      const steps = positiveInteger('steps')(text ?? '5000', name);
      if (steps > 100_000_000)
        throw new Error(`${name} must be a positive number of steps up to 100000000; got ${text}`);
      return steps;
    },
  }),
  setting({
    key: 'drawdownPollMs',
    flag: 'drawdown-poll-ms',
    variable: 'DRAWDOWN_DRAWDOWN_POLL_MS',
    kind: 'string',
    fallback: '20',
    placeholder: 'MS',
    description: 'How often the drawdown worker looks for usage accepted by other processes.',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'keepAliveTimeoutMs',
    flag: 'keep-alive-timeout-ms',
    variable: 'DRAWDOWN_KEEP_ALIVE_TIMEOUT_MS',
    kind: 'string',
    fallback: '72000',
    placeholder: 'MS',
    description:
      'How long an idle keep-alive connection to the live and sandbox APIs stays open. Keep it above your load balancer’s idle timeout (60 s on common ones), or the balancer may send a request on a connection the service is closing and answer 502.',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'schedulerPollMs',
    flag: 'scheduler-poll-ms',
    variable: 'DRAWDOWN_SCHEDULER_POLL_MS',
    kind: 'string',
    fallback: '1000',
    placeholder: 'MS',
    description:
      'How often renewals, scheduled changes, overdue invoices, API key expiries, live payment attempts left in flight and customer email reminders are looked for.',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'webhookPollMs',
    flag: 'webhook-poll-ms',
    variable: 'DRAWDOWN_WEBHOOK_POLL_MS',
    kind: 'string',
    fallback: '200',
    placeholder: 'MS',
    description: 'How often webhook delivery looks for notifications written by other processes.',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'documentWorkers',
    flag: 'document-workers',
    variable: 'DRAWDOWN_DOCUMENT_WORKERS',
    kind: 'string',
    fallback: 'auto',
    placeholder: 'N',
    description:
      'Worker threads that render invoice and credit note PDFs and decode logo uploads, off the event loop (1 to 64); `auto` is one fewer than the machine’s cores, at least 1 and at most 4.',
    parse: (text, name) => {
      if (text === undefined || text === 'auto') return defaultDocumentThreads();
      const threads = positiveInteger('threads')(text, name);
      if (threads > 64) throw new Error(`${name} must be auto or a positive number of threads up to 64; got ${text}`);
      return threads;
    },
  }),
  setting({
    key: 'documentQueue',
    flag: 'document-queue',
    variable: 'DRAWDOWN_DOCUMENT_QUEUE',
    kind: 'string',
    fallback: String(DEFAULT_DOCUMENT_QUEUE),
    placeholder: 'N',
    description:
      'PDFs and logo checks that may wait for a document thread; one more is answered `documents_busy` (503, Retry-After: 1).',
    parse: positiveInteger('documents'),
  }),
  setting({
    key: 'documentWorkerMemoryMb',
    flag: 'document-worker-memory-mb',
    variable: 'DRAWDOWN_DOCUMENT_WORKER_MEMORY_MB',
    kind: 'string',
    fallback: String(DEFAULT_DOCUMENT_WORKER_MEMORY_MB),
    placeholder: 'MB',
    description:
      'Each document thread’s JavaScript heap ceiling (at least 32); a thread over it is ended and replaced, failing only its own document.',
    parse: (text, name) => {
      const megabytes = positiveInteger('megabytes')(text, name);
      if (megabytes < 32) throw new Error(`${name} must be at least 32 megabytes; got ${text}`);
      return megabytes;
    },
  }),
  setting({
    key: 'shutdownTimeoutMs',
    flag: 'shutdown-timeout-ms',
    variable: 'DRAWDOWN_SHUTDOWN_TIMEOUT_MS',
    kind: 'string',
    fallback: '25000',
    placeholder: 'MS',
    description:
      'On SIGTERM or SIGINT, how long in-flight requests and worker batches may run before connections are cut.',
    parse: positiveInteger('milliseconds'),
  }),
  setting({
    key: 'logLevel',
    flag: 'log-level',
    variable: 'DRAWDOWN_LOG_LEVEL',
    kind: 'string',
    fallback: 'info',
    placeholder: 'LEVEL',
    description: `Least severe log level written (${LOG_LEVELS.join(', ')}); \`info\` includes one access line per request.`,
    parse: (text, name) => {
      const level = text ?? 'info';
      if (!(LOG_LEVELS as readonly string[]).includes(level))
        throw new Error(`${name} must be one of ${LOG_LEVELS.join(', ')}; got ${level}`);
      return level as LogLevel;
    },
  }),
  setting({
    key: 'accessLogUsageSample',
    flag: 'access-log-usage-sample',
    variable: 'DRAWDOWN_ACCESS_LOG_USAGE_SAMPLE',
    kind: 'string',
    fallback: '10',
    placeholder: 'N',
    description:
      'At `info`, write the access line of one in N `POST /usage-events` requests answered 202 (the first, then every Nth, per process); every other request, a usage request refused as a whole (4xx) or failed (5xx) included, always has its line (an event rejected inside a 202 is in the answer, never in the line), and the request metrics count every request. `1` writes every line. What the skipped lines held (request id, client address, duration of an accepted ingest) is lost; the events themselves are stored with their keys and acceptance times (ADR 0730).',
    parse: positiveInteger('requests'),
  }),
] as const satisfies readonly Setting[];

export function resolveServiceConfig(flags: FlagValues, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const entries = SETTINGS.map((item: Setting) => {
    const flag = flags[item.flag];
    const text =
      item.kind === 'boolean'
        ? flag === true
          ? 'true'
          : (env[item.variable] ?? item.fallback)
        : typeof flag === 'string'
          ? flag
          : (env[item.variable] ?? item.fallback);
    const name = typeof flag === 'string' || flag === true ? `--${item.flag}` : item.variable;
    return [item.key, item.parse(text, name)] as const;
  });
  return Object.fromEntries(entries) as unknown as ServiceConfig;
}

/** The `parseArgs` options of every setting. */
export function settingOptions(): Record<string, { type: 'string' | 'boolean' }> {
  return Object.fromEntries(SETTINGS.map((item) => [item.flag, { type: item.kind }]));
}

/**
 * The settings as usage lines: `  --flag VALUE   description (env VARIABLE)`, the descriptions in
 * one column; an option too long for it puts its description on the next line, in that column.
 */
export function settingUsage(): string {
  const column = 32;
  return SETTINGS.map((item: Setting) => {
    const left = `  --${item.flag}${item.placeholder ? ` ${item.placeholder}` : ''}`;
    const description = `${item.description.replace(/`/g, '')} (env ${item.variable})`;
    return left.length <= column - 2
      ? `${left.padEnd(column)}${description}`
      : `${left}\n${' '.repeat(column)}${description}`;
  }).join('\n');
}

/** The Markdown table of every setting, as `docs/configuration.md` holds it. */
export function configurationTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = SETTINGS.map((item: Setting) => {
    const fallback = item.fallback === undefined ? '(unset)' : `\`${item.fallback}\``;
    const flag = `\`--${item.flag}${item.placeholder ? ` ${item.placeholder}` : ''}\``;
    return `| \`${item.variable}\` | ${cell(flag)} | ${cell(fallback)} | ${cell(item.description)} |`;
  });
  return ['| Variable | Flag | Default | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
