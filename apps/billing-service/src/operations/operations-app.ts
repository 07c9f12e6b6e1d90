/**
 * @module
 * The operations endpoints, served on their own address (loopback by default, never the API
 * ports): `/livez` (the process answers), `/readyz` (it can serve: the database answers, its
 * schema is this build's, the workers run, and it is not shutting down), `/metrics`
 * (Prometheus text), `/version` and `/openapi.json` (the API's description). They carry no
 * account data, so they take no API key.
 */
import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import { registerReadinessGauge } from './metrics.js';

export interface ReadinessCheck {
  readonly name: string;
  /** Resolves with nothing when healthy; throws (or rejects) with the reason otherwise. */
  run(): Promise<void>;
}

/** What the operations endpoints serve. */
export interface ServiceOperations {
  readonly version: string;
  /** The API's OpenAPI 3.1 document (ADR 1406). */
  openApi(): Record<string, unknown>;
  readonly registry: Registry;
  readonly checks: readonly ReadinessCheck[];
}

export async function runChecks(
  checks: readonly ReadinessCheck[],
): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const results = await Promise.all(
    checks.map(async (check) => {
      try {
        await check.run();
        return [check.name, 'ok'] as const;
      } catch (error) {
        return [check.name, error instanceof Error ? error.message : String(error)] as const;
      }
    }),
  );
  return { ready: results.every(([, result]) => result === 'ok'), checks: Object.fromEntries(results) };
}

export function createOperationsApp(options: ServiceOperations): Hono {
  const app = new Hono();
  registerReadinessGauge(options.registry, async () => (await runChecks(options.checks)).ready);
  app.get('/livez', (c) => c.json({ status: 'alive' }));
  app.get('/readyz', async (c) => {
    const result = await runChecks(options.checks);
    c.header('Cache-Control', 'no-store');
    return c.json({ status: result.ready ? 'ready' : 'not_ready', checks: result.checks }, result.ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    const text = await options.registry.metrics();
    return c.text(text, 200, { 'Content-Type': options.registry.contentType });
  });
  app.get('/version', (c) => c.json({ name: 'drawdown', version: options.version }));
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', (c) => {
    document ??= options.openApi();
    return c.json(document);
  });
  app.notFound((c) =>
    c.json({ error: 'not_found', paths: ['/livez', '/readyz', '/metrics', '/version', '/openapi.json'] }, 404),
  );
  return app;
}
