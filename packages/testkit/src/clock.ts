/**
 * @module
 * Clocks tests move by hand, in place of `Date.now()` read in a test or a `{ now: () => now }`
 * built beside it: time moves only when the test says so, so no assertion races the wall clock.
 */
import type { Clock } from '@drawdown/billing-core';

/** The wall clock moved forward by the test: renewals and retries fall due on it, while real time still passes. */
export interface MovableClock extends Clock {
  /** Moves the clock `ms` milliseconds ahead of the wall clock (on top of earlier moves). */
  advance(ms: number): void;
}

export function movableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** A clock that stands still at one instant until the test moves or sets it. */
export interface FixedClock extends Clock {
  advance(ms: number): void;
  /** Sets the instant: milliseconds since the epoch, or RFC 3339 text. */
  set(at: number | string): void;
}

/** Stands at `start` (milliseconds since the epoch, or RFC 3339 text). */
export function fixedClock(start: number | string): FixedClock {
  let now = instant(start);
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (at) => {
      now = instant(at);
    },
  };
}

function instant(at: number | string): number {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new Error(`not an instant: ${String(at)}`);
  return ms;
}
