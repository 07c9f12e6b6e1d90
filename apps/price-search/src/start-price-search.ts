/**
 * @module
 * Starts the HTTP service; what the CLI's `serve` and the root start command call.
 */
import { createApp } from './app.js';
import { composeService, type ServiceOptions } from './compose-service.js';
import { DEFAULT_WARM_UP_MS, type WarmUpReport } from './lookup/warm-up.js';
import { listen, warmUpOverHttp } from './warm-up-over-http.js';

/** Options of a running service. */
export interface StartOptions extends ServiceOptions {
  /** Default 8090; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * Time budget in milliseconds of the warm-up run before listening (ADRs 0222, 0229): the catalogue prepared and
   * synthetic lookups made from its listings, sent as requests to a stand-in of the service on a loopback port,
   * nothing metered, no answer kept. Default 6,000; 0 disables it.
   */
  readonly warmUpMs?: number;
}

/** A running service. */
export interface RunningPriceSearch {
  /** Base URL, e.g. http://127.0.0.1:8090 */
  readonly url: string;
  /** What the warm-up before listening did. */
  readonly warmUp: WarmUpReport;
  close(): Promise<void>;
}

/**
 * Starts the service and resolves once it listens.
 * @example const search = await startPriceSearch({ port: 0 }); console.log(search.url); await search.close();
 */
export async function startPriceSearch(options: StartOptions = {}): Promise<RunningPriceSearch> {
  const service = await composeService(options);
  const app = createApp(service.deps);
  const host = options.host ?? '127.0.0.1';
  try {
    // Before listening, so that no client waits behind it (a readiness check sees the port closed until then).
    const warmed = await warmUpOverHttp(service, options.warmUpMs ?? DEFAULT_WARM_UP_MS);
    const { server, port } = await listen(app.fetch, options.port ?? 8090, host);
    service.feeds?.start();
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${urlHost}:${port}`,
      warmUp: warmed,
      // Idempotent: a second close waits for the first.
      close: () => {
        closing ??= new Promise<void>((resolve, reject) => {
          server.close((error) => {
            // Usage reports to Drawdown still in flight are delivered, and feed imports finish, before the
            // databases close.
            const drained = Promise.all([service.billing?.meter.close(), service.feeds?.stop()]);
            void drained
              .then(() => service.close())
              .then(() => {
                if (error) reject(error);
                else resolve();
              }, reject);
          });
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        return closing;
      },
    };
  } catch (error) {
    await service.close();
    throw error;
  }
}
