/**
 * @module
 * Service configuration from flags, then environment variables, then defaults; read once.
 */
import { resolve } from 'node:path';
import { parseRateLimit, type RateLimit } from './http/rate-limiter.js';
import type { WebhookDeliveryOptions } from './workers/webhook-delivery/delivery-worker.js';

export interface ServiceConfig {
  readonly host: string;
  readonly livePort: number;
  readonly sandboxPort: number;
  readonly dataDir: string;
  /** A postgres:// URL; absent means SQLite in the data folder. */
  readonly databaseUrl: string | undefined;
  /** PostgreSQL connections this process keeps at most (default 10). */
  readonly databasePool: number;
  /** Advertised in pagination links; absent means the address the server is bound to. */
  readonly livePublicUrl: string | undefined;
  readonly sandboxPublicUrl: string | undefined;
  readonly rateLimit: RateLimit | null;
  readonly trustProxy: boolean;
  /** Shares rate-limit counts between processes; absent means counting in process memory. */
  readonly redisUrl: string | undefined;
  /** How often the drawdown worker looks for events accepted by other processes. */
  readonly drawdownPollMs: number;
  /** How often the scheduler looks for due renewals and scheduled changes. */
  readonly schedulerPollMs: number;
  /** Deliver live webhooks to loopback and private-network destinations too (local development only). */
  readonly allowPrivateWebhooks: boolean;
  /** Tuning of webhook delivery; absent fields take the defaults (tests use fast retry schedules). */
  readonly webhookDelivery?: Partial<WebhookDeliveryOptions> | undefined;
}

/** 1,200 requests per 10 seconds per IP: room for a busy backend, a wall against a runaway loop (ADR 0007). */
export const DEFAULT_RATE_LIMIT = '1200/10s';

export type FlagValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

function port(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65_535)
    throw new Error(`${name} must be a port number; got ${text}`);
  return value;
}

function connections(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 1_000)
    throw new Error(`${name} must be a number of connections from 1 to 1000; got ${text}`);
  return value;
}

function milliseconds(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive number of milliseconds; got ${text}`);
  return value;
}

export function resolveServiceConfig(flags: FlagValues, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const text = (flag: string, variable: string): string | undefined => {
    const value = flags[flag];
    return typeof value === 'string' ? value : env[variable];
  };
  const host = text('host', 'DRAWDOWN_HOST') ?? '127.0.0.1';
  const livePort = port('--live-port', text('live-port', 'DRAWDOWN_LIVE_PORT') ?? '8080');
  const sandboxPort = port('--sandbox-port', text('sandbox-port', 'DRAWDOWN_SANDBOX_PORT') ?? '8081');
  const databaseUrl = text('database-url', 'DRAWDOWN_DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('--database-url must be a postgres:// URL');
  }
  return {
    host,
    livePort,
    sandboxPort,
    dataDir: resolve(text('data-dir', 'DRAWDOWN_DATA_DIR') ?? 'data'),
    databaseUrl,
    databasePool: connections('--database-pool', text('database-pool', 'DRAWDOWN_DATABASE_POOL') ?? '10'),
    livePublicUrl: text('live-public-url', 'DRAWDOWN_LIVE_PUBLIC_URL'),
    sandboxPublicUrl: text('sandbox-public-url', 'DRAWDOWN_SANDBOX_PUBLIC_URL'),
    rateLimit: parseRateLimit(text('rate-limit', 'DRAWDOWN_RATE_LIMIT') ?? DEFAULT_RATE_LIMIT),
    trustProxy: flags['trust-proxy'] === true || env.DRAWDOWN_TRUST_PROXY === 'true',
    redisUrl: text('redis-url', 'DRAWDOWN_REDIS_URL'),
    drawdownPollMs: milliseconds('DRAWDOWN_DRAWDOWN_POLL_MS', env.DRAWDOWN_DRAWDOWN_POLL_MS ?? '20'),
    schedulerPollMs: milliseconds('DRAWDOWN_SCHEDULER_POLL_MS', env.DRAWDOWN_SCHEDULER_POLL_MS ?? '1000'),
    allowPrivateWebhooks: flags['allow-private-webhooks'] === true || env.DRAWDOWN_ALLOW_PRIVATE_WEBHOOKS === 'true',
  };
}
