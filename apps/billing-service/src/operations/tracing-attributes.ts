/**
 * @module
 * Span attributes that the workers set and the tracing adapter reads (ADR 1452), kept apart from
 * the adapter so that workers never load the tracing library.
 */

/** Names the worker on a batch's root span (set when it starts). */
export const BATCH_ATTRIBUTE = 'drawdown.worker';
/** Set true on a batch that found nothing to do: its whole trace is dropped. */
export const IDLE_BATCH_ATTRIBUTE = 'drawdown.batch.idle';
