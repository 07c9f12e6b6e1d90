/**
 * @module
 * OpenTelemetry tracing (ADRs 1407, 1452), exported in batches to an OTLP/HTTP endpoint: one
 * server span per API request, one span per worker batch (the root of its own trace), a client
 * span per webhook delivery attempt and per database transaction, each a child of the span that
 * was active when it started. A well-formed W3C `traceparent` (and its `tracestate`) makes a
 * request's span a child of the caller's; a malformed one is ignored and a new trace starts, as
 * the W3C Trace Context recommendation asks. Off unless an endpoint is configured.
 *
 * The active span is carried in this module's own `AsyncLocalStorage`, not in a global context
 * manager, so that two services in one process (tests) never see each other's spans.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, ROOT_CONTEXT, SpanKind, SpanStatusCode, type TextMapGetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from '@opentelemetry/semantic-conventions';
import type { RequestSpan, RequestTracing } from '../http/request-tracing.js';
import type { Spans } from './spans.js';
import { BATCH_ATTRIBUTE, IDLE_BATCH_ATTRIBUTE } from './tracing-attributes.js';
import { serviceVersion } from './version.js';

export interface Tracing extends RequestTracing, Spans {
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

/**
 * Holds the ended spans of a running worker batch until the batch ends: a batch that found no
 * work is dropped with everything under it (an idle queue is polled every few hundred
 * milliseconds); any other span passes straight through.
 */
class IdleBatchFilter implements SpanProcessor {
  /** The root span id of every batch still running, by trace id. */
  private readonly running = new Map<string, string>();
  private readonly held = new Map<string, ReadableSpan[]>();

  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    const { traceId, spanId } = span.spanContext();
    if (span.attributes[BATCH_ATTRIBUTE] !== undefined && !span.parentSpanContext) this.running.set(traceId, spanId);
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const { traceId, spanId } = span.spanContext();
    const batch = this.running.get(traceId);
    if (batch === undefined) {
      this.next.onEnd(span);
      return;
    }
    if (batch !== spanId) {
      this.held.set(traceId, [...(this.held.get(traceId) ?? []), span]);
      return;
    }
    const held = this.held.get(traceId) ?? [];
    this.running.delete(traceId);
    this.held.delete(traceId);
    if (span.attributes[IDLE_BATCH_ATTRIBUTE] === true) return;
    for (const child of held) this.next.onEnd(child);
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createTracing(options: TracingOptions): Tracing {
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: options.endpoint ?? '' });
  const batches = new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.scheduledDelayMillis ?? 2_000 });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'drawdown', [ATTR_SERVICE_VERSION]: serviceVersion() }),
    spanProcessors: [new IdleBatchFilter(batches)],
  });
  const tracer = provider.getTracer('drawdown', serviceVersion());
  const propagator = new W3CTraceContextPropagator();
  const active = new AsyncLocalStorage<Context>();
  return {
    start(method, header): RequestSpan {
      const parent = propagator.extract(ROOT_CONTEXT, header, headerGetter);
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
        parent,
      );
      const context = trace.setSpan(parent, span);
      return {
        traceId: span.spanContext().traceId,
        run: (handler) => active.run(context, handler),
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
    async inSpan(name, spanOptions, work) {
      const parent = spanOptions.batch !== undefined ? ROOT_CONTEXT : (active.getStore() ?? ROOT_CONTEXT);
      const span = tracer.startSpan(
        name,
        {
          kind: spanOptions.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          attributes: {
            ...spanOptions.attributes,
            ...(spanOptions.batch !== undefined ? { [BATCH_ATTRIBUTE]: spanOptions.batch } : {}),
          },
        },
        parent,
      );
      const open = {
        setAttributes: (attributes: Record<string, string | number | boolean>) => {
          span.setAttributes(attributes);
        },
        fail: (error: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
        },
      };
      try {
        return await active.run(trace.setSpan(parent, span), () => work(open));
      } catch (error) {
        open.fail(error);
        throw error;
      } finally {
        span.end();
      }
    },
    shutdown: () => provider.shutdown(),
  };
}
