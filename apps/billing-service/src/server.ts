/**
 * @module
 * Runs the billing service: both environments' HTTP servers and the workers over one store,
 * with its logs, metrics and readiness checks, and a graceful close (ADR 1401).
 */
import type { Server } from 'node:http';
import { subscriptionHooks } from '@drawdown/billing-core';
import { migrationStatus, pingDatabase, poolFigures, readQueueFigures, schemaState } from '@drawdown/billing-store';
import { serve } from '@hono/node-server';
import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { CoreServices } from './compose-services.js';
import type { ServiceConfig } from './config.js';
import { createApp } from './http/app.js';
import { MemoryRateLimiter, type RateLimiter } from './http/rate-limiter.js';
import { RedisRateLimiter } from './http/redis-rate-limiter.js';
import type { RequestRecord } from './http/request-observer.js';
import { createEnvironmentClocks } from './infrastructure/environment-clocks.js';
import { createFailureReporter, createLogger, type FailureReporter, type Logger } from './operations/logger.js';
import { createServiceMetrics } from './operations/metrics.js';
import type { ReadinessCheck } from './operations/operations-app.js';
import { createRequestDrain, type DrainOutcome } from './operations/request-drain.js';
import { serviceVersion } from './operations/version.js';
import { createDrawdownWorker } from './workers/drawdown-worker.js';
import { createOverdueInvoicesWorker } from './workers/overdue-invoices-worker.js';
import { createRenewalScheduler } from './workers/renewal-scheduler.js';
import { createWebhookDeliveryWorker, DEFAULT_WEBHOOK_DELIVERY } from './workers/webhook-delivery/delivery-worker.js';
import { createDestinationGuard } from './workers/webhook-delivery/destination-guard.js';
import { wakeOnEvents } from './workers/webhook-delivery/wake-on-events.js';

export interface RunningService {
  readonly liveUrl: string;
  readonly sandboxUrl: string;
  /** What the operations endpoints serve. */
  readonly operations: ServiceOperations;
  /**
   * Stops accepting, lets in-flight requests finish (cutting connections still open after
   * `deadlineMs`), stops the workers after their current batch, then closes the stores.
   */
  close(options?: { readonly deadlineMs?: number }): Promise<DrainOutcome>;
}

export interface ServiceOperations {
  readonly version: string;
  readonly registry: Registry;
  readonly checks: readonly ReadinessCheck[];
}

export interface ServiceRuntime {
  /** Where the service logs; by default JSON lines on standard error at the configured level. */
  readonly logger?: Logger | undefined;
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

function createRateLimiter(
  config: ServiceConfig,
  logError: FailureReporter,
): { limiter: RateLimiter | null; close(): Promise<void> } {
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

function accessLine(logger: Logger, record: RequestRecord): void {
  const fields = {
    requestId: record.requestId,
    environment: record.environment,
    accountId: record.accountId,
    method: record.method,
    route: record.route,
    status: record.status,
    durationMs: Math.round(record.durationMs * 10) / 10,
  };
  if (record.status >= 500) logger.warn(fields, 'request');
  else logger.info(fields, 'request');
}

export async function startService(
  services: CoreServices,
  config: ServiceConfig,
  runtime: ServiceRuntime = {},
): Promise<RunningService> {
  const logger = runtime.logger ?? createLogger({ level: config.logLevel });
  const logError = createFailureReporter(logger);
  const metrics = createServiceMetrics({
    readQueues: () => readQueueFigures(services.database),
    readPool: () => poolFigures(services.database),
    now: () => services.clock.now(),
  });
  const drain = createRequestDrain();
  const rateLimits = createRateLimiter(config, logError);
  const webhookOptions = {
    ...DEFAULT_WEBHOOK_DELIVERY,
    pollIntervalMs: config.webhookPollMs,
    ...config.webhookDelivery,
  };
  const destinationGuard = createDestinationGuard({
    allowPrivate: config.allowPrivateWebhooks,
    resolveHost: webhookOptions.resolveHost,
  });
  const webhookDelivery = createWebhookDeliveryWorker({
    dependencies: { store: services.store, ids: services.ids, wallClock: services.clock },
    guard: destinationGuard,
    options: webhookOptions,
    onError: logError,
    onAttempt: metrics.observeWebhookAttempt,
  });
  const dependencies = {
    ...services,
    // Requests that write events wake the delivery worker, so their webhooks leave at once.
    store: wakeOnEvents(services.store, () => webhookDelivery.wake()),
    webhookDestinations: destinationGuard,
    // A completed checkout starts its subscription; a paid renewal revives a past-due one.
    transactionHooks: subscriptionHooks,
    clockFor: createEnvironmentClocks(services.store.sandboxClocks, services.clock),
    rateLimiter: rateLimits.limiter,
    trustProxy: config.trustProxy,
    logError,
    observeRequest: (record: RequestRecord) => {
      metrics.observeRequest(record);
      accessLine(logger, record);
    },
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
  const liveServer = await listen(drain.track(live.fetch), config.host, config.livePort);
  const sandboxServer = await listen(drain.track(sandbox.fetch), config.host, config.sandboxPort).catch(
    (error: unknown) => {
      liveServer.close();
      throw error;
    },
  );
  drain.adopt(liveServer);
  drain.adopt(sandboxServer);
  let workersRunning = true;
  for (const worker of workers) worker.start();
  bound.live = boundUrl(liveServer, config.host);
  bound.sandbox = boundUrl(sandboxServer, config.host);
  const checks: ReadinessCheck[] = [
    {
      name: 'accepting',
      run: async () => {
        if (drain.draining) throw new Error('shutting down');
      },
    },
    { name: 'database', run: () => pingDatabase(services.database, 2_000) },
    {
      name: 'schema',
      run: async () => {
        const state = schemaState(await migrationStatus(services.database));
        if (state !== 'current') throw new Error(`the schema is ${state} of this build`);
      },
    },
    {
      name: 'workers',
      run: async () => {
        if (!workersRunning) throw new Error('the workers are stopped');
      },
    },
  ];
  let closing: Promise<DrainOutcome> | undefined;
  const close = async (deadlineMs: number): Promise<DrainOutcome> => {
    logger.info({ deadlineMs, handlersRunning: drain.running() }, 'shutting down: draining requests');
    const outcome = await drain.drain(deadlineMs, Math.max(1_000, deadlineMs / 5));
    if (outcome.connectionsCut) logger.warn({ deadlineMs }, 'shutdown deadline passed: open connections were cut');
    await Promise.all(workers.map((worker) => worker.stop()));
    workersRunning = false;
    await rateLimits.close();
    if (outcome.handlersLeft > 0) {
      // Closing the store under a running handler would fail a request that may already have
      // committed; leaving it open lets the process exit as a crash would, which is safe.
      logger.error({ handlersLeft: outcome.handlersLeft }, 'handlers still running: the store is left open');
      return outcome;
    }
    await services.store.close();
    logger.info('stopped');
    return outcome;
  };
  return {
    liveUrl: bound.live,
    sandboxUrl: bound.sandbox,
    operations: { version: serviceVersion(), registry: metrics.registry, checks },
    close: (options = {}) => {
      closing ??= close(options.deadlineMs ?? config.shutdownTimeoutMs);
      return closing;
    },
  };
}
