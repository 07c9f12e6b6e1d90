/**
 * @module
 * The start-up warm-up sent over HTTP (ADR 0229): the warm-up's synthetic lookups become `POST /api/query`
 * requests to a stand-in of the service (`PriceSearchService.standIn`: the same catalogue, its own engine, cache,
 * keys and quotas) listening on a loopback port for the warm-up only. The request path is then compiled and
 * optimised by V8 before the first client arrives: HTTP parsing, routing, body reading, validation, keys, quotas,
 * the lookup and the response. Sent through the engine only, as before, that work was left to the first clients'
 * requests, where the compiler's background threads competed with them for the core (ADR 0229's measurements).
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { type ServerType, serve } from '@hono/node-server';
import { createApp } from './app.js';
import type { PriceSearchService } from './compose-service.js';
import { WARM_UP_IN_FLIGHT, type WarmUpReport } from './lookup/warm-up.js';

/** An HTTP server of `app`'s fetch handler, listening: the one way this service listens. */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  hostname: string,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, (info: AddressInfo) => resolve({ server, port: info.port }));
    server.once('error', reject);
  });
}

/**
 * Runs the service's warm-up with its lookups sent to a stand-in over loopback HTTP. Falls back to the warm-up
 * through the engine when the stand-in cannot listen. Never throws for a failed lookup (the report counts them).
 */
export async function warmUpOverHttp(service: PriceSearchService, budgetMs: number): Promise<WarmUpReport> {
  if (budgetMs <= 0) return service.warmUp(0);
  const standIn = service.standIn();
  try {
    let listening: { server: ServerType; port: number };
    try {
      listening = await listen(createApp(standIn.deps).fetch, 0, '127.0.0.1');
    } catch (error) {
      console.error(`price-search: the warm-up's stand-in could not listen (${String(error)}); warming up the engine`);
      return await service.warmUp(budgetMs);
    }
    const client = new WarmUpClient(listening.port, standIn.key);
    try {
      return await service.warmUp(budgetMs, (text) => client.ask(text));
    } finally {
      await client.close();
      await new Promise<void>((resolve) => listening.server.close(() => resolve()));
    }
  } finally {
    standIn.close();
  }
}

/**
 * The warm-up's HTTP client, on a worker thread: a client in this thread would run Node's stream and HTTP code
 * with the client's objects too, and the code V8 compiles for the server's requests would then be made for
 * both. Its isolate's compiled code is its own (ADR 0229).
 */
class WarmUpClient {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  #next = 0;

  constructor(port: number, key: string) {
    this.#worker = new Worker(CLIENT_SOURCE, { eval: true, workerData: { port, key, sockets: WARM_UP_IN_FLIGHT } });
    this.#worker.unref();
    this.#worker.on('message', ({ id, error }: { id: number; error: string | undefined }) => {
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(error));
    });
    this.#worker.on('error', (error) => this.#failAll(error));
    this.#worker.on('exit', () => this.#failAll(new Error("the warm-up's client stopped")));
  }

  /** One `POST /api/query` to the stand-in; rejects unless answered 200. */
  ask(text: string): Promise<void> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, text });
    });
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }

  #failAll(error: Error): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}

// The worker's code (plain JavaScript, Node's built-in modules only, so that it runs the same from the build and
// from the sources under test).
const CLIENT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Agent, request } = require('node:http');
const { port, key, sockets } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: sockets });
parentPort.on('message', ({ id, text }) => {
  const body = JSON.stringify({ query: text });
  const done = (error) => parentPort.postMessage({ id, error });
  const outgoing = request(
    {
      agent, host: '127.0.0.1', port, method: 'POST', path: '/api/query',
      // Clients write header names in either case; both are parsed by the server's code before a client comes.
      headers: id % 2 === 0
        ? { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
        : { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    },
    (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', (error) => done(String(error)));
      response.on('end', () => {
        if (response.statusCode === 200) done(undefined);
        else done('the stand-in answered ' + response.statusCode + ': ' + Buffer.concat(chunks).toString('utf8').slice(0, 200));
      });
    },
  );
  outgoing.on('error', (error) => done(String(error)));
  // A request the stand-in never answers cannot hold the start-up past the warm-up's budget for long.
  outgoing.setTimeout(10000, () => outgoing.destroy(new Error('the stand-in did not answer within 10 s')));
  outgoing.end(body);
});
`;
