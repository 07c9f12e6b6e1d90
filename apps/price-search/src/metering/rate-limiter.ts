/**
 * @module
 * The short-term rate limit: a token bucket per meter key that refills continuously. It guards against bursts;
 * the monthly quota is a separate decision with its own error code.
 */
import type { Clock } from '../shared/clock.js';

/** The answer of the rate limiter. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

// Buckets that have refilled completely carry no information; they are swept once the map grows past this.
const SWEEP_THRESHOLD = 10_000;

/** Token buckets in memory. */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock) {}

  /** Takes one request from the bucket of `key`, which holds `perMinute` requests and refills at that rate. */
  take(key: string, perMinute: number): RateDecision {
    const now = this.clock.now().getTime();
    const ratePerMs = perMinute / 60_000;
    const bucket = this.#buckets.get(key) ?? { tokens: perMinute, updatedAt: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.updatedAt) * ratePerMs);
    bucket.updatedAt = now;
    if (bucket.tokens < 1) {
      this.#buckets.set(key, bucket);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000)) };
    }
    bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > SWEEP_THRESHOLD) this.#sweep(now, ratePerMs, perMinute);
    return { allowed: true };
  }

  #sweep(now: number, ratePerMs: number, perMinute: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * ratePerMs >= perMinute) this.#buckets.delete(key);
    }
  }
}
