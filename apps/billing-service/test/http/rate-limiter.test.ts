/**
 * The in-memory rate limiter and the limit syntax, with time passed in: fixed windows per key,
 * refusal until the window ends, and Retry-After counting the seconds left.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter, parseRateLimit } from '../../src/http/rate-limiter.js';

const WINDOW_START = 1_800_000_000_000; // a multiple of 60 s, so windows start here

async function hits(limiter: MemoryRateLimiter, key: string, count: number, now: number) {
  const decisions = [];
  for (let index = 0; index < count; index += 1) decisions.push(await limiter.hit(key, now));
  return decisions;
}

describe('MemoryRateLimiter', () => {
  it('allows the limit within a window and refuses the next request', async () => {
    const limiter = new MemoryRateLimiter({ requests: 5, windowSeconds: 60 });
    const decisions = await hits(limiter, '203.0.113.1', 6, WINDOW_START + 1_000);
    expect(decisions.slice(0, 5)).toEqual(Array(5).fill({ allowed: true }));
    expect(decisions[5]).toEqual({ allowed: false, retryAfterSeconds: 59 });
  });

  it('keeps refusing until the window ends, counting Retry-After down', async () => {
    const limiter = new MemoryRateLimiter({ requests: 1, windowSeconds: 60 });
    await limiter.hit('ip', WINDOW_START);
    expect(await limiter.hit('ip', WINDOW_START + 10_000)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(await limiter.hit('ip', WINDOW_START + 30_500)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(await limiter.hit('ip', WINDOW_START + 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('allows requests again once Retry-After has passed', async () => {
    const limiter = new MemoryRateLimiter({ requests: 2, windowSeconds: 60 });
    const refused = (await hits(limiter, 'ip', 3, WINDOW_START + 20_000))[2];
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 40 });
    const retryAt = WINDOW_START + 20_000 + 40_000;
    expect(await limiter.hit('ip', retryAt)).toEqual({ allowed: true });
    expect(await limiter.hit('ip', retryAt)).toEqual({ allowed: true });
    expect((await limiter.hit('ip', retryAt)).allowed).toBe(false);
  });

  it('never answers a Retry-After below one second', async () => {
    const limiter = new MemoryRateLimiter({ requests: 1, windowSeconds: 1 });
    await limiter.hit('ip', WINDOW_START + 999);
    expect(await limiter.hit('ip', WINDOW_START + 999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('counts each key on its own', async () => {
    const limiter = new MemoryRateLimiter({ requests: 1, windowSeconds: 60 });
    expect(await limiter.hit('198.51.100.1', WINDOW_START)).toEqual({ allowed: true });
    expect((await limiter.hit('198.51.100.1', WINDOW_START)).allowed).toBe(false);
    expect(await limiter.hit('198.51.100.2', WINDOW_START)).toEqual({ allowed: true });
  });

  it('forgets old windows without forgetting current ones', async () => {
    const limiter = new MemoryRateLimiter({ requests: 1, windowSeconds: 60 });
    await limiter.hit('old', WINDOW_START);
    await limiter.hit('current', WINDOW_START + 60_000);
    // A later hit triggers the sweep; the current key must still be limited.
    expect((await limiter.hit('current', WINDOW_START + 60_001 + 60_000 - 2)).allowed).toBe(false);
    expect(await limiter.hit('old', WINDOW_START + 120_000)).toEqual({ allowed: true });
  });
});

describe('parseRateLimit', () => {
  it.each([
    ['240/60s', { requests: 240, windowSeconds: 60 }],
    ['1200/10s', { requests: 1200, windowSeconds: 10 }],
    ['100/1m', { requests: 100, windowSeconds: 60 }],
    ['20/1h', { requests: 20, windowSeconds: 3600 }],
  ])('reads %s', (text, limit) => {
    expect(parseRateLimit(text)).toEqual(limit);
  });

  it('reads off as no limit', () => {
    expect(parseRateLimit('off')).toBeNull();
  });

  it.each([
    '',
    'abc',
    '0/10s',
    '10/0s',
    '10/10',
    '10/10d',
    ' 10/10s',
    '-1/10s',
    '1.5/10s',
    '10 / 10s',
    'OFF',
  ])('refuses %j', (text) => {
    expect(() => parseRateLimit(text)).toThrow();
  });
});
