/**
 * @module
 * Runs the billing service: both environments' HTTP servers and the workers over one store,
 * with its logs, metrics and readiness checks, and a graceful close (ADR 1401).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Redis } from 'ioredis';
import { createApp, MAX_BODY_BYTES } from './app.js';
import type { CoreServices } from './compose-services.js';
import type { ServiceConfig } from './config.js';
import { MemoryRateLimiter, type RequestRateLimits, requestRateLimits } from './http/rate-limiter.js';
import { RedisRateLimiter } from './http/redis-rate-limiter.js';
import type { RequestRecord } from './http/request-observer.js';
import { UNCONFIGURED_PORTAL_PATH } from './http/unconfigured-portal-path.js';
import { createUsageEventsFastPath, type FastPath } from './http/usage-events-fast-path.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { accessLineSampler, accessLineWriter } from './operations/access-line.js';
import { createFailureReporter, type FailureReporter, flushLogs, type Logger } from './operations/logger.js';
import { createServiceMetrics } from './operations/metrics.js';
import type { ReadinessCheck, ServiceOperations } from './operations/operations-app.js';
import { createRequestDrain, type DrainOutcome } from './operations/request-drain.js';
import { serviceVersion } from './operations/version.js';
import { createDrawdownWorker } from './workers/drawdown-worker.js';
import { createDueWorkWorker } from './workers/due-work-worker.js';
import { createEmailWorker, DEFAULT_EMAIL_DELIVERY } from './workers/email-delivery/email-worker.js';
import { createSmtpTransport } from './workers/email-delivery/smtp-transport.js';
import { createReportWorker } from './workers/report-worker.js';
import { createWebhookDeliveryWorker, DEFAULT_WEBHOOK_DELIVERY } from './workers/webhook-delivery/delivery-worker.js';
import { createSimulationDeliveryWorker } from './workers/webhook-delivery/simulation-delivery-worker.js';

export type { ServiceOperations };

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

export interface ServiceRuntime {
  /** Where the service logs; the composition root's logger when absent. */
  readonly logger?: Logger | undefined;
  /**
   * Serve `POST /usage-events` on node:http directly (ADR 0719); on unless tracing is configured.
   * Tests turn it off to compare its answers with the app's.
   */
  readonly usageFastPath?: boolean | undefined;
  /** Hears each request the fast path served itself or handed to the app (tests prove which path answered). */
  readonly onUsageFastPath?: ((outcome: 'served' | 'handed_over') => void) | undefined;
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  fastPath: FastPath | undefined,
  host: string,
  port: number,
  keepAliveTimeoutMs: number,
): Promise<Server> {
  // The listener `serve` of @hono/node-server would build, with the fast path in front (ADR 0719).
  const app = getRequestListener(fetch, { hostname: host });
  const listener = fastPath
    ? (incoming: IncomingMessage, outgoing: ServerResponse) =>
        fastPath.matches(incoming) ? fastPath.serve(incoming, outgoing, app) : app(incoming, outgoing)
    : app;
  return new Promise((resolve, reject) => {
    const server = createServer({}, listener);
    // Node's 5 s default is shorter than a load balancer's idle timeout (ADR 1408).
    server.keepAliveTimeout = keepAliveTimeoutMs;
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function boundUrl(server: Server, host: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const REDIS_CONNECT_WAIT_MS = 5_000;

/** One limiter per limited kind (ADR 1480): in memory, or sharing counts through one Redis connection. */
function createRateLimits(
  config: ServiceConfig,
  logError: FailureReporter,
): { limits: RequestRateLimits | null; connected: Promise<void>; close(): Promise<void> } {
  const { keyRateLimit, rateLimit } = config;
  if (!keyRateLimit && !rateLimit) return { limits: null, connected: Promise.resolve(), close: async () => {} };
  if (!config.redisUrl) {
    return {
      limits: requestRateLimits({
        key: keyRateLimit ? new MemoryRateLimiter(keyRateLimit) : null,
        address: rateLimit ? new MemoryRateLimiter(rateLimit) : null,
      }),
      connected: Promise.resolve(),
      close: async () => {},
    };
  }
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', () => {});
  // Without an offline queue a count asked before the connection is up lets the request through:
  // the service waits for it (a moment on a reachable Redis) before it listens, at most
  // REDIS_CONNECT_WAIT_MS, so a Redis that is down never keeps the API from starting.
  const connected = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_CONNECT_WAIT_MS);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', done);
    redis.once('end', done);
  });
  return {
    connected,
    limits: requestRateLimits({
      key: keyRateLimit ? new RedisRateLimiter(redis, keyRateLimit, logError) : null,
      address: rateLimit ? new RedisRateLimiter(redis, rateLimit, logError) : null,
    }),
    close: async () => {
      redis.disconnect();
    },
  };
}

export async function startService(
  services: CoreServices,
  config: ServiceConfig,
  runtime: ServiceRuntime = {},
): Promise<RunningService> {
  const logger = runtime.logger ?? services.logger;
  const logError = runtime.logger ? createFailureReporter(runtime.logger) : services.reportError;
  const metrics = createServiceMetrics({
    readQueues: () => services.database.readQueues(),
    readPool: () => services.database.readPool(),
    readDocuments: () => services.documents.figures(),
    now: () => services.clock.now(),
  });
  const drain = createRequestDrain();
  const writeAccessLine = accessLineWriter(logger);
  const logsAccessLine = accessLineSampler(config.accessLogUsageSample);
  const rateLimits = createRateLimits(config, logError);
  await rateLimits.connected;
  // The deployment's portal session key is read, or made, before the first request, so no read
  // request writes it (`GET /customer-portal-sessions/verification-key`, ADR 1443).
  await services.portalSessions.publicKey();
  const { useCases } = services;
  const webhookOptions = {
    ...DEFAULT_WEBHOOK_DELIVERY,
    pollIntervalMs: config.webhookPollMs,
    ...config.webhookDelivery,
  };
  const webhookDelivery = createWebhookDeliveryWorker({
    useCases,
    recorder: services.deliveryRecorder,
    wallClock: services.clock,
    guard: services.destinationGuard,
    options: webhookOptions,
    onError: logError,
    onAttempt: metrics.observeWebhookAttempt,
    // With no portal configured, webhooks carry the environment's own `/portal` (ADR 1472), as answers do.
    portalUrlFor: (environment) =>
      environment === 'live'
        ? (config.livePortalUrl ??
          `${(config.livePublicUrl ?? bound.live).replace(/\/+$/, '')}${UNCONFIGURED_PORTAL_PATH}`)
        : (config.sandboxPortalUrl ??
          `${(config.sandboxPublicUrl ?? bound.sandbox).replace(/\/+$/, '')}${UNCONFIGURED_PORTAL_PATH}`),
    spans: services.spans,
  });
  services.onEventsWritten(() => webhookDelivery.wake());
  const simulationDelivery = createSimulationDeliveryWorker({
    useCases,
    wallClock: services.clock,
    guard: services.destinationGuard,
    options: {
      requestTimeoutMs: webhookOptions.requestTimeoutMs,
      maxResponseBytes: webhookOptions.maxResponseBytes,
      userAgent: webhookOptions.userAgent,
      pollIntervalMs: webhookOptions.pollIntervalMs,
      maxRunsInFlight: 4,
      leaseMs: webhookOptions.leaseMs,
    },
    onError: logError,
    spans: services.spans,
  });
  // A report of a million rows takes minutes; the lease outlasts it so no second worker restarts it.
  const reports = createReportWorker(useCases, {
    pollMs: config.schedulerPollMs,
    leaseMs: 60 * 60_000,
    onError: logError,
    spans: services.spans,
  });
  const emailOptions = { ...DEFAULT_EMAIL_DELIVERY, ...config.emailDelivery };
  const portalUrlOf = (environment: 'live' | 'sandbox') =>
    (environment === 'live' ? config.livePortalUrl : config.sandboxPortalUrl)?.replace(/\/+$/, '') ?? null;
  const emails = createEmailWorker({
    useCases,
    transport: config.smtpUrl
      ? createSmtpTransport(config.smtpUrl, { timeoutMs: emailOptions.smtpTimeoutMs })
      : undefined,
    invoiceLinks: services.invoiceLinks,
    portal: { sessions: services.portalSessions, ids: services.ids, urlFor: portalUrlOf },
    publicBaseUrlFor: (environment) =>
      environment === 'live' ? (config.livePublicUrl ?? bound.live) : (config.sandboxPublicUrl ?? bound.sandbox),
    options: emailOptions,
    onError: logError,
    spans: services.spans,
  });
  services.onEventsWritten(() => emails.wake());
  const { tracing } = services;
  const dependencies = {
    tracing,
    stripeJsUrl: config.stripeJsUrl,
    useCases,
    invoiceLinks: services.invoiceLinks,
    documents: services.documents,
    portalSessions: services.portalSessions,
    wakeSimulationDelivery: () => simulationDelivery.wake(),
    wakeReports: () => reports.wake(),
    rateLimits: rateLimits.limits,
    trustProxy:
      typeof config.trustedProxies !== 'number' || config.trustedProxies > 0
        ? config.trustedProxies
        : config.trustProxy,
    webhookSourceIps: config.webhookSourceIps,
    logError,
    logNotice: (message: string, fields: Record<string, unknown>) => logger.warn(fields, message),
    observeRequest: (record: RequestRecord) => {
      metrics.observeRequest(record);
      if (logsAccessLine(record)) writeAccessLine(record);
    },
  };
  const drawdowns = createDrawdownWorker(useCases, {
    pollMs: config.drawdownPollMs,
    busyIntervalMs: services.drawdownBusyIntervalMs,
    onError: logError,
    spans: services.spans,
  });
  const scheduled = { pollMs: config.schedulerPollMs, onError: logError, spans: services.spans };
  services.store.usageIngest.onRecorded(() => drawdowns.wake());
  const workers = [
    drawdowns,
    createDueWorkWorker(useCases, 'renewals', scheduled),
    createDueWorkWorker(useCases, 'overdue_invoices', scheduled),
    createDueWorkWorker(useCases, 'api_key_expiries', scheduled),
    createDueWorkWorker(useCases, 'payment_recovery', scheduled),
    createDueWorkWorker(useCases, 'payment_retries', scheduled),
    createDueWorkWorker(useCases, 'email_reminders', scheduled),
    webhookDelivery,
    simulationDelivery,
    reports,
    emails,
  ];
  const bound = { live: '', sandbox: '' };
  const live = createApp(dependencies, {
    environment: 'live',
    publicBaseUrl: () => config.livePublicUrl ?? bound.live,
    portalUrl: () => config.livePortalUrl,
  });
  const sandbox = createApp(dependencies, {
    environment: 'sandbox',
    publicBaseUrl: () => config.sandboxPublicUrl ?? bound.sandbox,
    portalUrl: () => config.sandboxPortalUrl,
  });
  // Traced requests go through the app, whose middleware makes the span current for the handler.
  const fastPathFor = (environment: 'live' | 'sandbox'): FastPath | undefined => {
    if (runtime.usageFastPath === false || tracing) return undefined;
    const fastPath = createUsageEventsFastPath(
      { ...dependencies, maxBodyBytes: MAX_BODY_BYTES, onOutcome: runtime.onUsageFastPath },
      environment,
    );
    // Its handlers count for the drain as the app's do: the store closes only after they return.
    return { matches: fastPath.matches, serve: drain.track(fastPath.serve) };
  };
  const listenFor = (environment: 'live' | 'sandbox', app: typeof live, port: number) =>
    listen(drain.track(app.fetch), fastPathFor(environment), config.host, port, config.keepAliveTimeoutMs);
  const liveServer = await listenFor('live', live, config.livePort);
  const sandboxServer = await listenFor('sandbox', sandbox, config.sandboxPort).catch((error: unknown) => {
    liveServer.close();
    throw error;
  });
  drain.adopt(liveServer);
  drain.adopt(sandboxServer);
  let workersRunning = true;
  for (const worker of workers) worker.start();
  bound.live = boundUrl(liveServer, config.host);
  bound.sandbox = boundUrl(sandboxServer, config.host);
  services.setPublicBaseUrl('live', config.livePublicUrl ?? bound.live);
  services.setPublicBaseUrl('sandbox', config.sandboxPublicUrl ?? bound.sandbox);
  const checks: ReadinessCheck[] = [
    {
      name: 'accepting',
      run: async () => {
        if (drain.draining) throw new Error('shutting down');
      },
    },
    { name: 'database', run: () => services.database.ping(2_000) },
    {
      name: 'schema',
      run: async () => {
        const state = await services.database.schemaState();
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
    // Renders still queued or running (of handlers past the deadline) finish; then the threads end (ADR 1491).
    await services.documents.close();
    await rateLimits.close();
    // Spans still in the batch are exported before the process goes; a collector that is down
    // costs those spans, never the shutdown.
    await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'tracing: spans not exported'));
    if (outcome.handlersLeft > 0) {
      // Closing the store under a running handler would fail a request that may already have
      // committed; leaving it open lets the process exit as a crash would, which is safe.
      logger.error({ handlersLeft: outcome.handlersLeft }, 'handlers still running: the store is left open');
      flushLogs(logger);
      return outcome;
    }
    await services.store.close();
    logger.info('stopped');
    // Access lines are written asynchronously (ADR 0715): none is left in the buffer.
    flushLogs(logger);
    return outcome;
  };
  return {
    liveUrl: bound.live,
    sandboxUrl: bound.sandbox,
    operations: { version: serviceVersion(), registry: metrics.registry, checks, openApi: () => openApiDocument() },
    close: (options = {}) => {
      closing ??= close(options.deadlineMs ?? config.shutdownTimeoutMs);
      return closing;
    },
  };
}
