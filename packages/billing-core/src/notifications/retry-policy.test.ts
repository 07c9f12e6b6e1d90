import { describe, expect, it } from 'vitest';
import type { Notification } from './entities.js';
import {
  afterAttempt,
  LIVE_RETRY_SCHEDULE,
  type RetrySchedule,
  retryCeilingMs,
  retryDelayMs,
  SANDBOX_RETRY_SCHEDULE,
} from './retry-policy.js';

const DAY_MS = 86_400_000;

const pending: Notification = {
  id: 'ntf_01h0000000000000000000000a',
  type: 'product.created',
  status: 'not_attempted',
  eventId: 'evt_01h0000000000000000000000a',
  occurredAt: '2026-01-01T00:00:00.000Z',
  deliveredAt: null,
  replayedAt: null,
  origin: 'event',
  lastAttemptAt: null,
  retryAt: null,
  timesAttempted: 0,
  notificationSettingId: 'ntfset_01h0000000000000000000000a',
  replayOf: null,
};

const at = (startedAt: number, endedAt = startedAt) => ({ startedAt, endedAt });

/** The sum of every retry's wait when the jitter always draws `random`. */
function totalWait(schedule: RetrySchedule, random: number): number {
  let total = 0;
  for (let failed = 1; failed < schedule.maxAttempts; failed += 1) total += retryDelayMs(schedule, failed, random);
  return total;
}

describe('retry schedule', () => {
  it('doubles the ceiling with each failure up to the cap', () => {
    const schedule: RetrySchedule = { maxAttempts: 10, initialDelayMs: 100, maxDelayMs: 1_000, minimumDelayMs: 10 };
    expect([1, 2, 3, 4, 5, 6].map((failed) => retryCeilingMs(schedule, failed))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('draws full jitter between the minimum and the ceiling', () => {
    const schedule: RetrySchedule = { maxAttempts: 10, initialDelayMs: 100, maxDelayMs: 1_000, minimumDelayMs: 10 };
    expect(retryDelayMs(schedule, 3, 0)).toBe(10);
    expect(retryDelayMs(schedule, 3, 0.5)).toBe(205);
    expect(retryDelayMs(schedule, 3, 0.999_999)).toBe(400);
  });

  it('never waits less than the minimum, even when the ceiling is below it', () => {
    const schedule: RetrySchedule = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2, minimumDelayMs: 50 };
    expect(retryDelayMs(schedule, 1, 0.7)).toBe(50);
  });

  it('spreads the live schedule over about three days: 60 attempts, 2.5 to 3.5 days on average', () => {
    expect(LIVE_RETRY_SCHEDULE.maxAttempts).toBe(60);
    const expected = totalWait(LIVE_RETRY_SCHEDULE, 0.5);
    expect(expected).toBeGreaterThan(2.5 * DAY_MS);
    expect(expected).toBeLessThan(3.5 * DAY_MS);
    expect(totalWait(LIVE_RETRY_SCHEDULE, 0)).toBeGreaterThan(0);
  });

  it('gives up on the sandbox within minutes', () => {
    expect(SANDBOX_RETRY_SCHEDULE.maxAttempts).toBe(10);
    expect(retryDelayMs(SANDBOX_RETRY_SCHEDULE, 1, 0.999)).toBeLessThanOrEqual(1_000);
    expect(totalWait(SANDBOX_RETRY_SCHEDULE, 0.999_999)).toBeLessThanOrEqual(5 * 60_000);
  });
});

describe('afterAttempt', () => {
  const schedule: RetrySchedule = { maxAttempts: 3, initialDelayMs: 1_000, maxDelayMs: 10_000, minimumDelayMs: 0 };
  const start = Date.parse('2026-03-01T12:00:00.000Z');

  it('marks a 2xx answer delivered and stops the attempts', () => {
    const result = afterAttempt(
      pending,
      { kind: 'response', statusCode: 204, contentType: null, body: '' },
      schedule,
      at(start, start + 40),
      0.5,
    );
    expect(result.dueAt).toBeNull();
    expect(result.notification).toMatchObject({
      status: 'delivered',
      timesAttempted: 1,
      lastAttemptAt: '2026-03-01T12:00:00.000Z',
      deliveredAt: '2026-03-01T12:00:00.040Z',
      retryAt: null,
    });
  });

  it('schedules a retry after a non-2xx answer, counted from the end of the attempt', () => {
    const result = afterAttempt(
      pending,
      { kind: 'response', statusCode: 302, contentType: 'text/html', body: '' },
      schedule,
      at(start, start + 100),
      0.5,
    );
    expect(result.dueAt).toBe(start + 100 + 500);
    expect(result.notification).toMatchObject({
      status: 'needs_retry',
      timesAttempted: 1,
      retryAt: '2026-03-01T12:00:00.600Z',
    });
  });

  it('treats a failure without an answer like an error answer', () => {
    const result = afterAttempt(pending, { kind: 'failure', reason: 'refused' }, schedule, at(start), 0);
    expect(result.notification.status).toBe('needs_retry');
    expect(result.dueAt).toBe(start);
  });

  it('fails the notification when the last attempt fails', () => {
    const third = { ...pending, status: 'needs_retry' as const, timesAttempted: 2 };
    const result = afterAttempt(third, { kind: 'failure', reason: 'timeout' }, schedule, at(start), 0.5);
    expect(result.dueAt).toBeNull();
    expect(result.notification).toMatchObject({ status: 'failed', timesAttempted: 3, retryAt: null });
  });
});
