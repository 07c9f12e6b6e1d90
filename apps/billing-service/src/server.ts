/**
 * @module
 * Runs the billing service: both environments' HTTP servers over one store.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { CoreServices } from './compose-services.js';
import type { ServiceConfig } from './config.js';
import { createApp } from './http/app.js';
import { MemoryRateLimiter } from './http/rate-limiter.js';
import { createEnvironmentClocks } from './infrastructure/environment-clocks.js';
import { createDrawdownWorker } from './workers/drawdown-worker.js';
import { createRenewalScheduler } from './workers/renewal-scheduler.js';

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

export async function startService(services: CoreServices, config: ServiceConfig): Promise<RunningService> {
  const dependencies = {
    ...services,
    clockFor: createEnvironmentClocks(services.store.sandboxClocks, services.clock),
    rateLimiter: config.rateLimit ? new MemoryRateLimiter(config.rateLimit) : null,
    trustProxy: config.trustProxy,
    logError: (message: string, error: unknown) => {
      console.error(`[drawdown] ${message}:`, error instanceof Error ? (error.stack ?? error.message) : error);
    },
  };
  const workers = [
    createDrawdownWorker(services, { pollMs: config.drawdownPollMs, onError: dependencies.logError }),
    createRenewalScheduler(services, { pollMs: config.schedulerPollMs, onError: dependencies.logError }),
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
      await services.store.close();
    },
  };
}
