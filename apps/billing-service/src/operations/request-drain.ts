/**
 * @module
 * Draining HTTP servers on shutdown so that a request is either answered or never stored.
 * Draining stops accepting connections, marks every further response `Connection: close` (a
 * keep-alive client then opens its next request elsewhere), and waits until every connection
 * has ended; connections still open at the deadline are cut. Handlers are counted apart from
 * connections: a handler whose client went away still runs to its commit, so the stores close
 * only after the last handler has returned.
 */
import type { Server } from 'node:http';

export interface RequestDrain {
  /** Wraps an application's fetch so the drain knows which handlers are still running. */
  track<A extends unknown[], R>(fetch: (...args: A) => R | Promise<R>): (...args: A) => Promise<R>;
  /** Adopts a server: its responses get `Connection: close` once draining starts. */
  adopt(server: Server): void;
  readonly draining: boolean;
  /** Handlers still running. */
  running(): number;
  /**
   * Stops accepting, waits for the adopted servers' connections to end (cutting them at
   * `deadlineMs`), then waits up to `handlerGraceMs` more for handlers still running.
   * Resolves with what had to be cut short.
   */
  drain(deadlineMs: number, handlerGraceMs: number): Promise<DrainOutcome>;
}

export interface DrainOutcome {
  /** Connections cut at the deadline. */
  readonly connectionsCut: boolean;
  /** Handlers still running when the grace ran out (the stores must then stay open). */
  readonly handlersLeft: number;
}

export function createRequestDrain(): RequestDrain {
  const servers: Server[] = [];
  let draining = false;
  let handlers = 0;
  let onIdle: (() => void) | undefined;

  const closed = (server: Server) =>
    new Promise<void>((resolve) => {
      if (!server.listening) {
        resolve();
        return;
      }
      server.close(() => resolve());
    });

  return {
    track(fetch) {
      return async (...args) => {
        handlers += 1;
        try {
          return await fetch(...args);
        } finally {
          handlers -= 1;
          if (handlers === 0) onIdle?.();
        }
      };
    },
    adopt(server) {
      servers.push(server);
      server.on('request', (_request, response) => {
        if (draining) response.setHeader('Connection', 'close');
      });
    },
    get draining() {
      return draining;
    },
    running: () => handlers,
    async drain(deadlineMs, handlerGraceMs) {
      draining = true;
      // close() stops listening and ends idle keep-alive connections; busy ones end after
      // their response, which now says Connection: close.
      const allClosed = Promise.all(servers.map(closed));
      const idleSweep = setInterval(() => {
        for (const server of servers) server.closeIdleConnections();
      }, 50);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'deadline'>((resolve) => {
        timer = setTimeout(() => resolve('deadline'), deadlineMs);
      });
      const first = await Promise.race([allClosed.then(() => 'closed' as const), deadline]);
      clearInterval(idleSweep);
      clearTimeout(timer);
      if (first === 'deadline') for (const server of servers) server.closeAllConnections();
      if (handlers > 0) {
        await new Promise<void>((resolve) => {
          const grace = setTimeout(resolve, handlerGraceMs);
          onIdle = () => {
            clearTimeout(grace);
            resolve();
          };
        });
      }
      return { connectionsCut: first === 'deadline', handlersLeft: handlers };
    },
  };
}
