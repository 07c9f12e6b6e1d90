/**
 * Several processes share one count per IP through Redis: two limiters on one Redis refuse the
 * request past the limit whichever of them it reaches, and a Redis that is down lets requests
 * through rather than taking the API with it.
 */
import { findOrStartRedis, type RedisServer } from '@drawdown/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../src/http/redis-rate-limiter.js';

describe('RedisRateLimiter', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const prefix = `drawdown:test:${process.pid}:${Date.now()}:`;

  async function limiter(requests: number, errors: unknown[] = [], url = server.url): Promise<RedisRateLimiter> {
    const redis = new Redis(url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    redis.on('error', () => {});
    clients.push(redis);
    // Wait for the connection (or its failure): without an offline queue, commands sent before it fail.
    await new Promise<void>((resolve) => {
      redis.once('ready', () => resolve());
      redis.once('end', () => resolve());
    });
    return new RedisRateLimiter(
      redis,
      { requests, windowSeconds: 60 },
      (_message, error) => errors.push(error),
      prefix,
    );
  }

  beforeAll(async () => {
    server = await findOrStartRedis();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server.stop();
  });

  it('shares one count between limiters, as two processes would', async () => {
    const first = await limiter(3);
    const second = await limiter(3);
    const now = 1_800_000_000_000;
    const decisions = [
      await first.hit('203.0.113.9', now),
      await second.hit('203.0.113.9', now + 1),
      await first.hit('203.0.113.9', now + 2),
      await second.hit('203.0.113.9', now + 3),
    ];
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]).toMatchObject({ allowed: false, retryAfterSeconds: expect.any(Number) });
    expect(await first.hit('198.51.100.7', now + 4)).toEqual({ allowed: true });
  });

  it('counts afresh in the next window', async () => {
    const shared = await limiter(1);
    const now = 1_800_000_060_000;
    expect((await shared.hit('192.0.2.1', now)).allowed).toBe(true);
    expect((await shared.hit('192.0.2.1', now + 1)).allowed).toBe(false);
    expect((await shared.hit('192.0.2.1', now + 60_000)).allowed).toBe(true);
  });

  it('lets requests through and reports the failure when Redis is unreachable', async () => {
    const errors: unknown[] = [];
    const unreachable = await limiter(1, errors, 'redis://127.0.0.1:1');
    expect(await unreachable.hit('192.0.2.2', Date.now())).toEqual({ allowed: true });
    expect(errors).toHaveLength(1);
  });
});
