/**
 * @module
 * Time comes through this port so that month boundaries, token expiry and rate-limit windows are testable.
 */

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };
