import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('allows a burst of the per-minute amount, then tells how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => new Date(now) });
    for (let request = 0; request < 6; request += 1) expect(limiter.take('ip:a', 6).allowed).toBe(true);
    expect(limiter.take('ip:a', 6)).toEqual({ allowed: false, retryAfterSeconds: 10 });
    now += 10_000;
    expect(limiter.take('ip:a', 6).allowed).toBe(true);
    expect(limiter.take('ip:a', 6).allowed).toBe(false);
  });

  it('keeps one bucket per key', () => {
    const limiter = new RateLimiter({ now: () => new Date(0) });
    expect(limiter.take('ip:a', 1).allowed).toBe(true);
    expect(limiter.take('ip:a', 1).allowed).toBe(false);
    expect(limiter.take('ip:b', 1).allowed).toBe(true);
  });
});
