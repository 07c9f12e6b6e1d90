/**
 * @module
 * When a failed delivery is tried again: exponential backoff with full jitter (ADR 0503). The
 * n-th retry waits a random time between `minimumDelayMs` and
 * `min(maxDelayMs, initialDelayMs * 2^(n-1))`, so receivers that come back are not hit by every
 * sender at once. Randomness is passed in; the core has none of its own.
 */
import { toTimestamp } from '../shared/clock.js';
import type { Environment } from '../shared/scope.js';
import type { DeliveryOutcome, Notification } from './entities.js';

export interface RetrySchedule {
  /** Attempts in all, the first included; after the last one fails the notification is `failed`. */
  readonly maxAttempts: number;
  /** Upper bound of the first retry's delay; it doubles with each failure up to `maxDelayMs`. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** No retry comes sooner than this, whatever the jitter draws. */
  readonly minimumDelayMs: number;
}

/**
 * The reference's live policy, up to 60 attempts over about three days: the bound doubles from
 * one minute to a cap of 10,000 s (2.8 h), so the expected span of the 59 retries is 3.0 days.
 */
export const LIVE_RETRY_SCHEDULE: RetrySchedule = {
  maxAttempts: 60,
  initialDelayMs: 60_000,
  maxDelayMs: 10_000_000,
  minimumDelayMs: 10_000,
};

/**
 * The sandbox gives up within minutes, so integrators see `failed` and replays while they test:
 * 10 attempts, the bound doubling from 1 s to a cap of 60 s (about two minutes in all).
 */
export const SANDBOX_RETRY_SCHEDULE: RetrySchedule = {
  maxAttempts: 10,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  minimumDelayMs: 500,
};

export const DEFAULT_RETRY_SCHEDULES: Readonly<Record<Environment, RetrySchedule>> = {
  live: LIVE_RETRY_SCHEDULE,
  sandbox: SANDBOX_RETRY_SCHEDULE,
};

/** The upper bound of the wait after `failedAttempts` failures (1 for the first retry). */
export function retryCeilingMs(schedule: RetrySchedule, failedAttempts: number): number {
  const doublings = Math.min(Math.max(failedAttempts - 1, 0), 52);
  const ceiling = Math.min(schedule.maxDelayMs, schedule.initialDelayMs * 2 ** doublings);
  return Math.max(ceiling, schedule.minimumDelayMs);
}

/** The wait before the next attempt after `failedAttempts` failures; `random` is in [0, 1). */
export function retryDelayMs(schedule: RetrySchedule, failedAttempts: number, random: number): number {
  const ceiling = retryCeilingMs(schedule, failedAttempts);
  const unit = Math.min(Math.max(random, 0), 1);
  return Math.round(schedule.minimumDelayMs + unit * (ceiling - schedule.minimumDelayMs));
}

/** True when the outcome counts as delivered: an HTTP 2xx answer. */
export function isDelivered(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'response' && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

/** A notification after one attempt, and when its next attempt is due (null when none is). */
export interface AttemptResult {
  readonly notification: Notification;
  readonly dueAt: number | null;
}

/** When an attempt started and ended, in wall-clock milliseconds. */
export interface AttemptTimes {
  readonly startedAt: number;
  readonly endedAt: number;
}

/** What one attempt does to a notification; the next attempt's wait counts from the attempt's end. */
export function afterAttempt(
  notification: Notification,
  outcome: DeliveryOutcome,
  schedule: RetrySchedule,
  times: AttemptTimes,
  random: number,
): AttemptResult {
  const attemptedAt = toTimestamp(times.startedAt);
  const timesAttempted = notification.timesAttempted + 1;
  if (isDelivered(outcome)) {
    return {
      notification: {
        ...notification,
        status: 'delivered',
        deliveredAt: toTimestamp(times.endedAt),
        lastAttemptAt: attemptedAt,
        retryAt: null,
        timesAttempted,
      },
      dueAt: null,
    };
  }
  if (timesAttempted >= schedule.maxAttempts) {
    return {
      notification: { ...notification, status: 'failed', lastAttemptAt: attemptedAt, retryAt: null, timesAttempted },
      dueAt: null,
    };
  }
  const dueAt = times.endedAt + retryDelayMs(schedule, timesAttempted, random);
  return {
    notification: {
      ...notification,
      status: 'needs_retry',
      lastAttemptAt: attemptedAt,
      retryAt: toTimestamp(dueAt),
      timesAttempted,
    },
    dueAt,
  };
}
