/**
 * @module
 * Exponential backoff with full jitter: before retry n (1-based) wait a uniformly random time in
 * [0, min(cap, base × 2^(n-1))). Full jitter spreads clients that failed together, so they do not
 * come back together.
 */

export interface BackoffPolicy {
  /** The first retry's ceiling, in milliseconds. */
  readonly baseDelayMs: number;
  /** No wait exceeds this, in milliseconds. */
  readonly maxDelayMs: number;
}

export function backoffDelay(policy: BackoffPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}
