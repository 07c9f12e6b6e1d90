/**
 * @module
 * Time is injected. The live clock is the wall clock; a sandbox clock runs ahead of it by
 * an offset the account controls (ADR 0006), so the core never reads the time itself.
 */

export interface Clock {
  /** The current instant, in milliseconds since the epoch. */
  now(): number;
}

/** RFC 3339 UTC text with millisecond precision, the form every timestamp takes on the wire. */
export function toTimestamp(epochMilliseconds: number): string {
  // Under load many events are accepted within one millisecond: the last spelling is kept.
  if (epochMilliseconds === lastSpelled.epochMilliseconds) return lastSpelled.text;
  const text = new Date(epochMilliseconds).toISOString();
  lastSpelled = { epochMilliseconds, text };
  return text;
}

let lastSpelled = { epochMilliseconds: Number.NaN, text: '' };
