/**
 * OpenTelemetry tracing (ADR 1407): with `--otel-traces-endpoint`, every API request becomes a
 * server span exported over OTLP/HTTP to a real receiver on loopback; a well-formed incoming
 * `traceparent` makes the span its child, a malformed one starts a new trace, and the access
 * line names the trace. Spans still batched when the service stops are exported by the shutdown.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createAccount, createApiKey } from '@drawdown/billing-core';
import { createTestStorage, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreServices, composeServices } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';
import { createLogger } from '../../src/operations/logger.js';
import { startService } from '../../src/server.js';

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
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
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('OpenTelemetry tracing of API requests', () => {
  const receiver = otlpReceiver();
  const lines: Record<string, unknown>[] = [];
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
    storage = await createTestStorage('sqlite');
    const config = resolveServiceConfig(
      {
        'data-dir': storage.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        'otel-traces-endpoint': endpoint,
      },
      {},
    );
    services = await composeServices(config);
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
    await storage?.dispose();
  });

  const spanOf = (requestId: string) => {
    const found = spans.find((span) => attribute(span, 'drawdown.request_id') === requestId);
    if (!found) throw new Error(`no span for request ${requestId}: ${JSON.stringify(spans)}`);
    return found;
  };

  it('exports OTLP/HTTP JSON, naming the service and its version', () => {
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
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
});
