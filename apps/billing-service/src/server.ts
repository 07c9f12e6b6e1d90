/**
 * @module
 * Runs the billing service: both environments' HTTP servers over one store.
 */
import type { Server } from 'node:http';
import { subscriptionHooks } from '@drawdown/billing-core';
import { serve } from '@hono/node-server';
import { Redis } from 'ioredis';
import type { CoreServices } from './compose-services.js';
import type { ServiceConfig } from './config.js';
import { createApp } from './http/app.js';
import { MemoryRateLimiter, type RateLimiter } from './http/rate-limiter.js';
import { RedisRateLimiter } from './http/redis-rate-limiter.js';
import { createEnvironmentClocks } from './infrastructure/environment-clocks.js';
import { createApiKeyExpiryWorker } from './workers/api-key-expiry-worker.js';
import { createDrawdownWorker } from './workers/drawdown-worker.js';
import { createOverdueInvoicesWorker } from './workers/overdue-invoices-worker.js';
import { createRenewalScheduler } from './workers/renewal-scheduler.js';
import { createReportWorker } from './workers/report-worker.js';
import { createWebhookDeliveryWorker, DEFAULT_WEBHOOK_DELIVERY } from './workers/webhook-delivery/delivery-worker.js';
import { createDestinationGuard } from './workers/webhook-delivery/destination-guard.js';
import { createSimulationDeliveryWorker } from './workers/webhook-delivery/simulation-delivery-worker.js';
import { wakeOnEvents } from './workers/webhook-delivery/wake-on-events.js';

export interface RunningService {
  readonly liveUrl: string;
  readonly sandboxUrl: string;
  close(): Promise<void>;
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  host: string,
  port: number,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }, () => resolve(server as Server)) as Server;
    server.once('error', reject);
  });
}

function boundUrl(server: Server, host: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function logError(message: string, error: unknown): void {
  console.error(`[drawdown] ${message}:`, error instanceof Error ? (error.stack ?? error.message) : error);
}

function createRateLimiter(config: ServiceConfig): { limiter: RateLimiter | null; close(): Promise<void> } {
  if (!config.rateLimit) return { limiter: null, close: async () => {} };
  if (!config.redisUrl) return { limiter: new MemoryRateLimiter(config.rateLimit), close: async () => {} };
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', () => {});
  return {
    limiter: new RedisRateLimiter(redis, config.rateLimit, logError),
    close: async () => {
      redis.disconnect();
    },
  };
}

export async function startService(services: CoreServices, config: ServiceConfig): Promise<RunningService> {
  const rateLimits = createRateLimiter(config);
  const webhookOptions = { ...DEFAULT_WEBHOOK_DELIVERY, ...config.webhookDelivery };
  const destinationGuard = createDestinationGuard({
    allowPrivate: config.allowPrivateWebhooks,
    resolveHost: webhookOptions.resolveHost,
  });
  const webhookDelivery = createWebhookDeliveryWorker({
    dependencies: { store: services.store, ids: services.ids, wallClock: services.clock },
    guard: destinationGuard,
    options: webhookOptions,
    onError: logError,
  });
  const simulationDelivery = createSimulationDeliveryWorker({
    dependencies: { store: services.store, wallClock: services.clock },
    guard: destinationGuard,
    options: {
      requestTimeoutMs: webhookOptions.requestTimeoutMs,
      maxResponseBytes: webhookOptions.maxResponseBytes,
      userAgent: webhookOptions.userAgent,
      pollIntervalMs: webhookOptions.pollIntervalMs,
      maxRunsInFlight: 4,
      leaseMs: webhookOptions.leaseMs,
    },
    onError: logError,
  });
  const clockFor = createEnvironmentClocks(services.store.sandboxClocks, services.clock);
  const reportWorker = createReportWorker(
    { ...services, store: wakeOnEvents(services.store, () => webhookDelivery.wake()), clockFor },
    { pollMs: config.schedulerPollMs, leaseMs: 60 * 60_000, onError: logError },
  );
  const dependencies = {
    ...services,
    wakeReports: () => reportWorker.wake(),
    wakeSimulationDelivery: () => simulationDelivery.wake(),
    // Requests that write events wake the delivery worker, so their webhooks leave at once.
    store: wakeOnEvents(services.store, () => webhookDelivery.wake()),
    webhookDestinations: destinationGuard,
    // A completed checkout starts its subscription; a paid renewal revives a past-due one.
    transactionHooks: subscriptionHooks,
    clockFor,
    rateLimiter: rateLimits.limiter,
    trustProxy: config.trustProxy,
    logError,
  };
  const workers = [
    createDrawdownWorker(
      { ...services, store: dependencies.store },
      { pollMs: config.drawdownPollMs, onError: dependencies.logError },
    ),
    createRenewalScheduler(
      { ...services, store: dependencies.store },
      { pollMs: config.schedulerPollMs, onError: dependencies.logError },
    ),
    createOverdueInvoicesWorker(services, { pollMs: config.schedulerPollMs, onError: dependencies.logError }),
    createApiKeyExpiryWorker(
      { ...services, store: dependencies.store },
      { pollMs: config.schedulerPollMs, onError: dependencies.logError },
    ),
    webhookDelivery,
    simulationDelivery,
    reportWorker,
  ];
  const bound = { live: '', sandbox: '' };
  const live = createApp(dependencies, {
    environment: 'live',
    publicBaseUrl: () => config.livePublicUrl ?? bound.live,
  });
  const sandbox = createApp(dependencies, {
    environment: 'sandbox',
    publicBaseUrl: () => config.sandboxPublicUrl ?? bound.sandbox,
  });
  const liveServer = await listen(live.fetch, config.host, config.livePort);
  const sandboxServer = await listen(sandbox.fetch, config.host, config.sandboxPort).catch((error: unknown) => {
    liveServer.close();
    throw error;
  });
  for (const worker of workers) worker.start();
  bound.live = boundUrl(liveServer, config.host);
  bound.sandbox = boundUrl(sandboxServer, config.host);
  return {
    liveUrl: bound.live,
    sandboxUrl: bound.sandbox,
    close: async () => {
      await Promise.all(
        [liveServer, sandboxServer].map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      await Promise.all(workers.map((worker) => worker.stop()));
      await rateLimits.close();
      await services.store.close();
    },
  };
}
