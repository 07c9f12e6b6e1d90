/**
 * @module
 * Rate limits shared by several service processes through Redis: one counter per counter name
 * (`key:apikey_…` or `address:…`, `rateCounterOf`) and window, incremented atomically and
 * expiring with its window.
 */
import type { Redis } from 'ioredis';
import type { RateDecision, RateLimit, RateLimiter } from './rate-limiter.js';

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly limit: RateLimit,
    private readonly onError: (message: string, error: unknown) => void,
    private readonly prefix = 'drawdown:rate:',
  ) {}

  async hit(counter: string, now: number): Promise<RateDecision> {
    const windowMs = this.limit.windowSeconds * 1000;
    const start = now - (now % windowMs);
    const name = `${this.prefix}${start}:${counter}`;
    try {
      const results = await this.redis.multi().incr(name).pexpire(name, windowMs).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      if (count <= this.limit.requests) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
    } catch (error) {
      // A limiter that cannot count must not take the API down with it: let the request through.
      this.onError('rate limiter unavailable', error);
      return { allowed: true };
    }
  }
}
