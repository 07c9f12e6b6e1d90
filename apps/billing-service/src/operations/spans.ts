/**
 * @module
 * The port through which workers, webhook deliveries and the store's units of work are traced
 * (ADR 1452), so that none of them knows the tracing library: a span wraps one piece of work and
 * becomes a child of the span active when it starts (a request's, a worker batch's). Without
 * tracing, `NO_SPANS` runs the work and records nothing.
 */

export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

export interface OpenSpan {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed (an error status with the error's message). */
  fail(error: unknown): void;
}

export interface SpanOptions {
  /** `client` for calls to another system (a webhook receiver, the database); `internal` otherwise. */
  readonly kind: 'internal' | 'client';
  readonly attributes?: SpanAttributes;
  /**
   * A worker batch, by the worker's name (`drawdown.worker`): the root of its own trace (never a
   * child of whatever was active), and dropped, with everything under it, when it ends with
   * `drawdown.batch.idle` true, so that polling an empty queue exports nothing.
   */
  readonly batch?: string;
}

export interface Spans {
  /** Runs `work` inside a new span; a thrown error marks the span failed and is rethrown. */
  inSpan<T>(name: string, options: SpanOptions, work: (span: OpenSpan) => Promise<T>): Promise<T>;
}

const NO_SPAN: OpenSpan = { setAttributes: () => {}, fail: () => {} };

export const NO_SPANS: Spans = { inSpan: (_name, _options, work) => work(NO_SPAN) };
