/**
 * @module
 * Serves the operations endpoints on their own address (`--ops-address`, loopback by default),
 * so a load balancer's health checks and a Prometheus scrape never pass the API's keys, rate
 * limits or proxy.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createOperationsApp, type ServiceOperations } from './operations-app.js';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export interface OperationsServer {
  readonly url: string;
  close(): Promise<void>;
}

export function startOperationsServer(
  operations: ServiceOperations,
  address: ListenAddress,
): Promise<OperationsServer> {
  const app = createOperationsApp(operations);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: address.host, port: address.port }, (info) => {
      const host = address.host.includes(':') ? `[${address.host}]` : address.host;
      resolve({
        url: `http://${host}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as Server).closeAllConnections();
          }),
      });
    }) as Server;
    server.once('error', reject);
  });
}
