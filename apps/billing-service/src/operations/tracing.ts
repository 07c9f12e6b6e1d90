/**
 * @module
 * OpenTelemetry tracing of API requests (ADR 1407): one server span per request, exported in
 * batches to an OTLP/HTTP endpoint. A well-formed W3C `traceparent` (and its `tracestate`) makes
 * the span a child of the caller's; a malformed one is ignored and a new trace starts, as the
 * W3C Trace Context recommendation asks. Off unless an endpoint is configured.
 */
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, type TextMapGetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from '@opentelemetry/semantic-conventions';
import type { RequestSpan, RequestTracing } from '../http/request-tracing.js';
import { serviceVersion } from './version.js';

export interface Tracing extends RequestTracing {
  /** Exports the spans still buffered and stops; called once on shutdown. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The OTLP/HTTP traces endpoint. */
  readonly endpoint?: string;
  /** Replaces the OTLP exporter (tests). */
  readonly exporter?: SpanExporter;
  /** How long spans wait in the batch before export (default 2 s). */
  readonly scheduledDelayMillis?: number;
}

const headerGetter: TextMapGetter<(name: string) => string | undefined> = {
  keys: () => ['traceparent', 'tracestate'],
  get: (header, key) => header(key),
};

export function createTracing(options: TracingOptions): Tracing {
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: options.endpoint ?? '' });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'drawdown', [ATTR_SERVICE_VERSION]: serviceVersion() }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.scheduledDelayMillis ?? 2_000 })],
  });
  const tracer = provider.getTracer('drawdown', serviceVersion());
  const propagator = new W3CTraceContextPropagator();
  return {
    start(method, header): RequestSpan {
      const parent = propagator.extract(ROOT_CONTEXT, header, headerGetter);
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
        parent,
      );
      const active = trace.setSpan(parent, span);
      return {
        traceId: span.spanContext().traceId,
        run: (handler) => context.with(active, handler),
        end(record) {
          span.updateName(`${record.method} ${record.route}`);
          span.setAttributes({
            [ATTR_HTTP_ROUTE]: record.route,
            [ATTR_HTTP_RESPONSE_STATUS_CODE]: record.status,
            'drawdown.environment': record.environment,
            'drawdown.request_id': record.requestId,
            ...(record.accountId === undefined ? {} : { 'drawdown.account_id': record.accountId }),
          });
          if (record.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
