/**
 * @module
 * Runs the billing service: both environments' HTTP servers over one store.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import type { CoreServices } from './compose-services.js';
import type { ServiceConfig } from './config.js';
import { MemoryRateLimiter, type RateLimiter } from './http/rate-limiter.js';
import { RedisRateLimiter } from './http/redis-rate-limiter.js';
import { createDrawdownWorker } from './workers/drawdown-worker.js';
import { createDueWorkWorker } from './workers/due-work-worker.js';
import { createWebhookDeliveryWorker, DEFAULT_WEBHOOK_DELIVERY } from './workers/webhook-delivery/delivery-worker.js';

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
  const { useCases } = services;
  const webhookDelivery = createWebhookDeliveryWorker({
    useCases,
    wallClock: services.clock,
    guard: services.destinationGuard,
    options: { ...DEFAULT_WEBHOOK_DELIVERY, ...config.webhookDelivery },
    onError: logError,
  });
  services.onEventsWritten(() => webhookDelivery.wake());
  const dependencies = {
    useCases,
    invoiceLinks: services.invoiceLinks,
    rateLimiter: rateLimits.limiter,
    trustProxy: config.trustProxy,
    logError,
  };
  const drawdowns = createDrawdownWorker(useCases, { pollMs: config.drawdownPollMs, onError: logError });
  services.store.usageIngest.onRecorded(() => drawdowns.wake());
  const workers = [
    drawdowns,
    createDueWorkWorker(useCases, 'renewals', { pollMs: config.schedulerPollMs, onError: logError }),
    createDueWorkWorker(useCases, 'overdue_invoices', { pollMs: config.schedulerPollMs, onError: logError }),
    webhookDelivery,
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
