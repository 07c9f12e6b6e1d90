/**
 * @module
 * Rate limiting by client IP in fixed windows. Past the limit an IP is refused until its
 * window ends, and every request in between gets 429 with the seconds left in Retry-After.
 */

export interface RateLimit {
  readonly requests: number;
  readonly windowSeconds: number;
}

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Counts requests per key; one process uses memory, several share Redis (ADR 0007). */
export interface RateLimiter {
  hit(key: string, now: number): Promise<RateDecision>;
}

/** Parses `240/60s`, `1200/10s`, `100/1m` or `off`. */
export function parseRateLimit(text: string): RateLimit | null {
  if (text === 'off') return null;
  const match = /^(\d+)\/(\d+)(s|m|h)$/.exec(text);
  if (!match) throw new Error(`Rate limit must look like 1200/10s, 240/1m or off; got ${text}`);
  const [, requests, amount, unit] = match as unknown as [string, string, string, 's' | 'm' | 'h'];
  const seconds = Number(amount) * { s: 1, m: 60, h: 3600 }[unit];
  if (Number(requests) < 1 || seconds < 1) throw new Error(`Rate limit must be positive; got ${text}`);
  return { requests: Number(requests), windowSeconds: seconds };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly limit: RateLimit) {}

  async hit(key: string, now: number): Promise<RateDecision> {
    const windowMs = this.limit.windowSeconds * 1000;
    this.sweep(now, windowMs);
    const start = now - (now % windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.limit.requests) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
  }

  /** Forgets finished windows now and then, so memory follows active clients only. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.start + windowMs <= now) this.windows.delete(key);
  }
}
