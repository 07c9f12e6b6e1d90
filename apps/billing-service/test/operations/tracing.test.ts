/**
 * OpenTelemetry tracing (ADRs 1407, 1452), on both engines: with `--otel-traces-endpoint`, every
 * API request becomes a server span exported over OTLP/HTTP to a real receiver on loopback; a
 * well-formed incoming `traceparent` makes the span its child, a malformed one starts a new
 * trace, and the access line names the trace. Worker batches that did work are the roots of
 * their own traces (idle polls export nothing), each webhook delivery attempt is a client span
 * under its batch, and every database transaction is a client span under the request or batch
 * that opened it, naming the engine. Spans still batched when the service stops are exported by
 * the shutdown.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createAccount, createApiKey } from '@drawdown/billing-core';
import { createTestStorage, ENGINES, expectEvery, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreServices, composeServices } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';
import { createLogger } from '../../src/operations/logger.js';
import { createTracing } from '../../src/operations/tracing.js';
import { startService } from '../../src/server.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../notifications/webhook-receiver.js';

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly boolValue?: boolean;
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly { readonly key: string; readonly value: OtlpValue }[];
}
interface OtlpExport {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly { readonly key: string; readonly value: OtlpValue }[] };
    readonly scopeSpans: readonly { readonly spans: readonly OtlpSpan[] }[];
  }[];
}

/** A collector's OTLP/HTTP JSON traces endpoint: keeps every export it receives. */
function otlpReceiver() {
  const exports: OtlpExport[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.push(String(request.headers['content-type']));
      if (request.method === 'POST' && request.url === '/v1/traces') {
        exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, exports, contentTypes };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.boolValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
const DAY_MS = 86_400_000;

describe.each(ENGINES)('%s: OpenTelemetry tracing of requests, worker batches, webhooks and transactions', (engine) => {
  const receiver = otlpReceiver();
  const lines: Record<string, unknown>[] = [];
  let webhooks: WebhookReceiver;
  let storage: TestStorage;
  let services: CoreServices;
  let spans: OtlpSpan[] = [];
  let resource: Record<string, string | undefined> = {};
  const sent = {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    parentId: '00f067aa0ba902b7',
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/v1/traces`;
    storage = await createTestStorage(engine);
    webhooks = await startWebhookReceiver();
    const config = resolveServiceConfig(
      {
        'data-dir': storage.dataDir,
        ...(storage.databaseUrl ? { 'database-url': storage.databaseUrl } : {}),
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        'scheduler-poll-ms': '50',
        'webhook-poll-ms': '50',
        'otel-traces-endpoint': endpoint,
        // The webhook receiver is on loopback (ADR 1485).
        'allow-private-webhooks': true,
      },
      {},
    );
    // As `drawdown serve` does: one tracing for the requests, the workers and the store.
    services = await composeServices(config, { tracing: createTracing({ endpoint }) });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const service = await startService(services, config, {
      logger: createLogger({ level: 'info', destination: stream }),
    });
    const account = await createAccount(services, { name: 'Traced', earlyAccess: true });
    const key = (
      await createApiKey(services, { accountId: account.id, environment: 'sandbox', name: 'k', permissions: ['all'] })
    ).token;
    const get = (path: string, headers: Record<string, string>) =>
      fetch(`${service.sandboxUrl}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    const post = (path: string, body: unknown, requestId: string) =>
      fetch(`${service.sandboxUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
        body: JSON.stringify(body),
      });
    const setting = await post(
      '/notification-settings',
      {
        description: 'Traced hooks',
        type: 'url',
        destination: webhooks.url,
        subscribed_events: ['product.created'],
        traffic_source: 'all',
      },
      'setting',
    );
    expect(setting.status).toBe(201);
    // A write: its transaction under the request's span; its event delivered by a worker batch.
    expect((await post('/products', { name: 'Traced', tax_category: 'standard' }, 'write')).status).toBe(201);
    await webhooks.waitFor('the product.created webhook', (received) => received.length > 0);
    // A report: generated by the report worker's batch.
    const report = await post('/reports', { type: 'transactions', filters: [] }, 'report');
    expect(report.status).toBe(201);
    const reportId = ((await report.json()) as { data: { id: string } }).data.id;
    await eventually('the report to be ready', async () => {
      const read = (await (await get(`/reports/${reportId}`, {})).json()) as { data: { status: string } };
      return read.data.status === 'ready';
    });
    // A key that expires in two days: the API-key expiry worker's batch sends its notice.
    await createApiKey(services, {
      accountId: account.id,
      environment: 'sandbox',
      name: 'expiring',
      permissions: ['all'],
      expiresAt: new Date(Date.now() + 2 * DAY_MS).toISOString(),
    });
    await eventually('the API key expiry notice', async () => {
      const events = (await (await get('/events?event_type=api_key.expiring', {})).json()) as { data: unknown[] };
      return events.data.length > 0;
    });
    const continued = await get('/products/pro_01h0000000000000000000000a', {
      traceparent: `00-${sent.traceId}-${sent.parentId}-01`,
      tracestate: 'vendor=opaque',
      'x-request-id': 'continued',
    });
    expect(continued.status).toBe(404);
    expect((await get('/products', { traceparent: '00-zzzz-not-a-trace', 'x-request-id': 'malformed' })).status).toBe(
      200,
    );
    expect((await get('/customers', { 'x-request-id': 'fresh' })).status).toBe(200);
    // The batch is still waiting for its delay: the shutdown exports it.
    await service.close();
    spans = receiver.exports.flatMap((batch) =>
      batch.resourceSpans.flatMap((group) => group.scopeSpans.flatMap((scope) => scope.spans)),
    );
    resource = Object.fromEntries(
      (receiver.exports[0]?.resourceSpans[0]?.resource.attributes ?? []).map((entry) => [
        entry.key,
        entry.value.stringValue,
      ]),
    );
  });
  afterAll(async () => {
    receiver.server.close();
    await webhooks?.close();
    await storage?.dispose();
  });

  const spanOf = (requestId: string) => {
    const found = spans.find((span) => attribute(span, 'drawdown.request_id') === requestId);
    if (!found) throw new Error(`no span for request ${requestId}: ${JSON.stringify(spans)}`);
    return found;
  };

  it('exports OTLP/HTTP JSON, naming the service and its version', () => {
    expectEvery(receiver.contentTypes, (type) => type.startsWith('application/json'), { what: 'exports' });
    expect(resource['service.name']).toBe('drawdown');
    expect(resource['service.version']).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('continues the caller’s trace from a well-formed traceparent, as a server span named after the route', () => {
    const span = spanOf('continued');
    expect(span.traceId).toBe(sent.traceId);
    expect(span.parentSpanId).toBe(sent.parentId);
    expect(span.spanId).toMatch(/^[\da-f]{16}$/);
    expect(span.spanId).not.toBe(sent.parentId);
    expect(span.name).toBe('GET /products/:id');
    expect(span.kind).toBe(2); // SPAN_KIND_SERVER
    expect(attribute(span, 'http.request.method')).toBe('GET');
    expect(attribute(span, 'http.route')).toBe('/products/:id');
    expect(attribute(span, 'http.response.status_code')).toBe(404);
    expect(attribute(span, 'drawdown.environment')).toBe('sandbox');
    expect(attribute(span, 'drawdown.account_id')).toMatch(/^acc_/);
  });

  it('starts a new trace when traceparent is malformed or absent', () => {
    for (const requestId of ['malformed', 'fresh']) {
      const span = spanOf(requestId);
      expect(span.traceId).toMatch(/^[\da-f]{32}$/);
      expect(span.traceId).not.toBe(sent.traceId);
      expect(span.parentSpanId ?? '').toBe('');
    }
    expect(spanOf('malformed').traceId).not.toBe(spanOf('fresh').traceId);
  });

  it('names the trace in the access line', () => {
    for (const requestId of ['continued', 'malformed', 'fresh']) {
      const line = lines.find((entry) => entry.msg === 'request' && entry.requestId === requestId);
      expect(line?.traceId, requestId).toBe(spanOf(requestId).traceId);
    }
  });

  const batchesOf = (worker: string) => spans.filter((span) => attribute(span, 'drawdown.worker') === worker);
  const childrenOf = (parent: OtlpSpan) =>
    spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);
  const expectTransactionUnder = (parent: OtlpSpan) => {
    const transactions = childrenOf(parent).filter((span) => span.name === 'db.transaction');
    expect(transactions.length, parent.name).toBeGreaterThan(0);
    for (const transaction of transactions) {
      expect(transaction.kind).toBe(SPAN_KIND.client);
      expect(attribute(transaction, 'db.system')).toBe(engine === 'postgres' ? 'postgresql' : 'sqlite');
    }
  };

  it('puts a request’s database transaction under the request’s span', () => {
    const write = spanOf('write');
    expect(write.name).toBe('POST /products');
    expectTransactionUnder(write);
  });

  it('traces a webhook delivery batch as a root span, with one client span per attempt under it', () => {
    const batches = batchesOf('webhook delivery');
    const attempts = spans.filter((span) => span.name === 'POST' && span.kind === SPAN_KIND.client);
    // The setting's own event is not subscribed; product.created is the only notification.
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts as [OtlpSpan];
    const batch = batches.find((candidate) => candidate.spanId === attempt.parentSpanId);
    expect(batch, 'the attempt’s parent is a webhook delivery batch').toBeDefined();
    expect(batch?.name).toBe('webhook delivery batch');
    expect(batch?.kind).toBe(SPAN_KIND.internal);
    expect(batch?.parentSpanId ?? '').toBe('');
    expect(batch?.traceId).toBe(attempt.traceId);
    expect(attribute(batch as OtlpSpan, 'drawdown.batch.notifications_claimed')).toBe(1);
    expectTransactionUnder(batch as OtlpSpan);
    const port = Number(new URL(webhooks.url).port);
    expect(attribute(attempt, 'http.request.method')).toBe('POST');
    expect(attribute(attempt, 'server.address')).toBe('127.0.0.1');
    expect(attribute(attempt, 'server.port')).toBe(port);
    expect(attribute(attempt, 'http.response.status_code')).toBe(200);
    expect(attribute(attempt, 'drawdown.webhook.attempt')).toBe(1);
    // Never the destination's path or query (a receiver's secret may be there).
    const keys = attempt.attributes.map((entry) => entry.key);
    expect(keys.filter((key) => key.startsWith('url.'))).toEqual([]);
  });

  it('traces the report and API-key expiry batches that did work, each with its transactions', () => {
    const [report] = batchesOf('reports');
    expect(report?.name).toBe('reports batch');
    expect(attribute(report as OtlpSpan, 'drawdown.batch.reports_claimed')).toBe(1);
    expectTransactionUnder(report as OtlpSpan);
    const expiries = batchesOf('API key expiries').filter((span) => attribute(span, 'drawdown.batch.items_done') === 1);
    expect(expiries).toHaveLength(1);
    expect(expiries[0]?.parentSpanId ?? '').toBe('');
    expectTransactionUnder(expiries[0] as OtlpSpan);
  });

  it('exports no idle batch: polling an empty queue leaves no trace', () => {
    const batches = spans.filter((span) => attribute(span, 'drawdown.worker') !== undefined);
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) expect(attribute(batch, 'drawdown.batch.idle'), batch.name).toBeFalsy();
    // Nothing was overdue and no usage was sent: those workers polled throughout and exported nothing.
    expect(batchesOf('overdue invoices')).toEqual([]);
    expect(batchesOf('drawdown')).toEqual([]);
  });
});
