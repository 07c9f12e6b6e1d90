/**
 * @module
 * GET /health: 200 while any network answers (status `ok` or `degraded`), 503 when every network with a source
 * is failing, so that load balancers and the client rule "check health after two failed calls" agree.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import { describeHealth } from '../../lookup/service-health.js';
import type { HttpDependencies } from '../http-dependencies.js';

/** Registers GET /health. */
export function registerGetHealth(app: Hono<{ Bindings: HttpBindings }>, deps: HttpDependencies): void {
  app.get('/health', async (c) => {
    const body = describeHealth({
      connectors: deps.engine.connectors,
      health: deps.health,
      version: deps.version,
      now: deps.clock.now(),
      ...(deps.catalogueSource === undefined ? {} : { catalogueSource: deps.catalogueSource }),
      ...(deps.feeds === undefined ? {} : { feeds: await deps.feeds.report() }),
    });
    c.header('cache-control', 'no-store');
    return c.json(body, body.status === 'down' ? 503 : 200);
  });
}
