/**
 * Logs and metrics of a running service, in process: request ids taken from `X-Request-Id` when
 * well formed, one JSON access line per request with the account, environment and client
 * address (and the path when no route matched), the
 * Prometheus registry's request, queue, pool and event-loop figures, and repeated failures
 * written a few times per window, then counted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, createApiKey, StandingFailure } from '@drawdown/billing-core';
import {
  type BillingHarness,
  createTestStorage,
  ENGINES,
  startBillingHarness,
  type TestStorage,
} from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreServices, composeServices } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';
import { configurationDocument } from '../../src/configuration-doc.js';
import { createFailureReporter, STANDING_FAILURE_WINDOW_MS } from '../../src/operations/logger.js';
import { createOperationsApp } from '../../src/operations/operations-app.js';
import { type RunningService, startService } from '../../src/server.js';
import { memoryLog } from '../support/memory-log.js';

const REPO_ROOT = join(import.meta.dirname, '../../../..');

describe.each(ENGINES)('%s: request ids, access lines and metrics', (engine) => {
  let storage: TestStorage;
  let services: CoreServices;
  let service: RunningService;
  let key: string;
  let accountId: string;
  const log = memoryLog();

  beforeAll(async () => {
    storage = await createTestStorage(engine);
    const config = resolveServiceConfig(
      {
        'data-dir': storage.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        ...(storage.databaseUrl ? { 'database-url': storage.databaseUrl } : {}),
      },
      {},
    );
    services = await composeServices(config);
    service = await startService(services, config, { logger: log.logger });
    const account = await createAccount(services, { name: 'Observed', earlyAccess: true });
    accountId = account.id;
    key = (await createApiKey(services, { accountId, environment: 'sandbox', name: 'k', permissions: ['all'] })).token;
  });
  afterAll(async () => {
    await service?.close();
    await storage?.dispose();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${service.sandboxUrl}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  it('takes a well-formed X-Request-Id, replaces a malformed one, and logs one access line per request', async () => {
    const chosen = await get('/products/pro_01h0000000000000000000000a', { 'x-request-id': 'lb-7f3a.42' });
    expect(chosen.status).toBe(404);
    expect(chosen.headers.get('request-id')).toBe('lb-7f3a.42');
    expect(((await chosen.json()) as { meta: { request_id: string } }).meta.request_id).toBe('lb-7f3a.42');
    const malformed = await get('/products', { 'x-request-id': 'has spaces "and quotes"' });
    expect(malformed.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const access = log.lines.filter((line) => line.msg === 'request');
    expect(access.find((line) => line.requestId === 'lb-7f3a.42')).toMatchObject({
      level: 'info',
      environment: 'sandbox',
      accountId,
      method: 'GET',
      route: '/products/:id',
      status: 404,
      service: 'drawdown',
    });
    expect(access.find((line) => line.requestId === malformed.headers.get('request-id'))).toMatchObject({
      route: '/products',
      status: 200,
    });
    for (const line of log.lines) expect(typeof line.time).toBe('string');
  });

  it('serves request, queue, pool and event-loop figures on /metrics, and readiness', async () => {
    await get('/products');
    const ops = createOperationsApp(service.operations);
    const metrics = await (await ops.request('/metrics')).text();
    expect(metrics).toMatch(
      /drawdown_http_requests_total\{environment="sandbox",method="GET",route="\/products",status="200"\} [1-9]/,
    );
    expect(metrics).toMatch(/drawdown_http_request_duration_seconds_bucket\{.*route="\/products".*\}/);
    for (const name of [
      'drawdown_usage_events_pending 0',
      'drawdown_usage_drawdown_lag_seconds 0',
      'drawdown_outbox_events_pending',
      'drawdown_webhook_notifications_pending',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(metrics).toContain(name);
    if (engine === 'postgres') expect(metrics).toMatch(/drawdown_database_pool_connections\{state="max"\} 10/);
    const ready = await ops.request('/readyz');
    expect(ready.status).toBe(200);
  });
});

describe('repeated failures', () => {
  it('are written five times per window, then counted into the next window’s first line', () => {
    const log = memoryLog();
    let now = 0;
    const report = createFailureReporter(log.logger, { perWindow: 5, windowMs: 10_000, now: () => now });
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (let index = 0; index < 240; index += 1) report('drawdown batch failed', outage);
    report('another failure', new Error('boom'));
    expect(log.lines.filter((line) => line.msg === 'drawdown batch failed')).toHaveLength(5);
    expect(log.lines.filter((line) => line.msg === 'another failure')).toHaveLength(1);
    now = 10_000;
    report('drawdown batch failed', outage);
    expect(log.lines.at(-1)).toMatchObject({ msg: 'drawdown batch failed', suppressedSinceLastWindow: 235 });
    // Stacks stay inside the JSON line.
    expect(String((log.lines[0]?.err as { stack: string }).stack)).toContain('ECONNREFUSED');
  });
});

describe('standing failures', () => {
  it('are written once an hour, whatever else fails, with the count of the repeats in between', () => {
    const log = memoryLog();
    let now = 0;
    const report = createFailureReporter(log.logger, { perWindow: 5, windowMs: 10_000, now: () => now });
    const stranded = new StandingFailure('refund adj_1 waits for stripe, which is no longer this account’s provider');
    for (let second = 0; second < 3_600; second += 1) {
      now = second * 1_000;
      report('recovering refund adj_1', stranded);
      // Another failure reported meanwhile keeps its own, shorter window.
      if (second % 100 === 0) report('drawdown batch failed', new Error('boom'));
    }
    expect(log.lines.filter((line) => line.msg === 'recovering refund adj_1')).toHaveLength(1);
    expect(log.lines.filter((line) => line.msg === 'drawdown batch failed')).toHaveLength(36);
    now = STANDING_FAILURE_WINDOW_MS;
    report('recovering refund adj_1', stranded);
    expect(log.lines.at(-1)).toMatchObject({ msg: 'recovering refund adj_1', suppressedSinceLastWindow: 3_599 });
  });
});

describe('docs/configuration.md', () => {
  it('is the rendering of the settings schema (run `npm run docs` after changing a setting)', () => {
    // The standalone portal's section follows; apps/billing-portal/test/standalone-server.test.ts checks it.
    const document = configurationDocument();
    expect(readFileSync(join(REPO_ROOT, 'docs/configuration.md'), 'utf8').slice(0, document.length)).toBe(document);
  });
});

// What an access line says of the client: the same whatever the engine, so one is enough.
describe('access lines: the client address and the path of an unmatched request', () => {
  const log = memoryLog();
  let direct: BillingHarness;
  let proxied: BillingHarness;
  let ranged: BillingHarness;

  beforeAll(async () => {
    direct = await startBillingHarness({ logger: log.logger });
    proxied = await startBillingHarness({ logger: log.logger, trustProxy: true });
    ranged = await startBillingHarness({ logger: log.logger, trustedProxies: '127.0.0.0/8,::1,10.0.0.0/8' });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
    await ranged?.close();
  });

  async function lineOf(response: Response): Promise<Record<string, unknown>> {
    const requestId = response.headers.get('request-id');
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const line = log.lines.find((candidate) => candidate.msg === 'request' && candidate.requestId === requestId);
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no access line for ${requestId}`);
  }

  it('names the socket’s peer, and the path (never the query) of a request no route matched', async () => {
    const matched = await fetch(`${direct.sandboxUrl}/products`, {
      headers: { authorization: `Bearer ${direct.sandboxKey}`, 'x-forwarded-for': '198.51.100.66' },
    });
    expect(matched.status).toBe(200);
    const line = await lineOf(matched);
    // Without --trust-proxy a forwarded address is the client's own claim: the socket's peer is logged.
    expect(line.clientAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(line).toMatchObject({ method: 'GET', route: '/products', status: 200 });
    expect(line).not.toHaveProperty('path');

    const unmatched = await fetch(`${direct.sandboxUrl}/no-such/endpoint?token=secret-value`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${direct.sandboxKey}` },
    });
    expect(unmatched.status).toBe(404);
    const missing = await lineOf(unmatched);
    expect(missing).toMatchObject({ method: 'DELETE', route: 'unmatched', path: '/no-such/endpoint', status: 404 });
    expect(missing.clientAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(JSON.stringify(missing)).not.toContain('secret-value');
  });

  it('behind --trust-proxy names the X-Forwarded-For entry the proxy appended, on the app and the usage fast path', async () => {
    const forwardedFor = '10.1.2.3, 203.0.113.42';
    const listed = await fetch(`${proxied.sandboxUrl}/products`, {
      headers: { authorization: `Bearer ${proxied.sandboxKey}`, 'x-forwarded-for': forwardedFor },
    });
    expect((await lineOf(listed)).clientAddress).toBe('203.0.113.42');
    const ingested = await fetch(`${proxied.sandboxUrl}/usage-events`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${proxied.sandboxKey}`,
        'content-type': 'application/json',
        'x-forwarded-for': forwardedFor,
      },
      body: JSON.stringify({ events: [] }),
    });
    expect(await lineOf(ingested)).toMatchObject({ route: '/usage-events', clientAddress: '203.0.113.42' });
    const unmatched = await fetch(`${proxied.liveUrl}/v2/nothing`, { headers: { 'x-forwarded-for': forwardedFor } });
    expect(await lineOf(unmatched)).toMatchObject({
      environment: 'live',
      method: 'GET',
      route: 'unmatched',
      path: '/v2/nothing',
      clientAddress: '203.0.113.42',
    });
  });

  it('behind proxies named by range, names the first X-Forwarded-For entry from the right outside them (ADR 1522)', async () => {
    // The client wrote 6.6.6.6; the balancer appended 203.0.113.42; an internal hop appended 10.1.2.3.
    const forwardedFor = '6.6.6.6, 203.0.113.42, 10.1.2.3';
    const listed = await fetch(`${ranged.sandboxUrl}/products`, {
      headers: { authorization: `Bearer ${ranged.sandboxKey}`, 'x-forwarded-for': forwardedFor },
    });
    expect((await lineOf(listed)).clientAddress).toBe('203.0.113.42');
    const ingested = await fetch(`${ranged.sandboxUrl}/usage-events`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ranged.sandboxKey}`,
        'content-type': 'application/json',
        'x-forwarded-for': forwardedFor,
      },
      body: JSON.stringify({ events: [] }),
    });
    expect(await lineOf(ingested)).toMatchObject({ route: '/usage-events', clientAddress: '203.0.113.42' });
  });
});
