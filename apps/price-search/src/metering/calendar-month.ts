/**
 * @module
 * Monthly quotas count per calendar month in UTC: every client resets at the same instant, whatever its
 * time zone, and the key of a month sorts as text.
 */

/** "2026-11" for any instant in November 2026 (UTC). */
export function monthKey(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** 00:00 UTC on the first day of the month after `at`. */
export function startOfNextMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** Whole seconds from `from` until `until`, at least 1 (a Retry-After of 0 invites an immediate retry). */
export function secondsUntil(from: Date, until: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - from.getTime()) / 1000));
}
