/**
 * @module
 * Rate limiting in fixed windows (ADR 0007, ADR 1480). A request is counted against its API key
 * once the key authenticated, and against its client address otherwise (no key, or a key
 * refused); each has its own limit. Past the limit a key or an address is refused until its
 * window ends, and every request in between gets 429 with the seconds left in Retry-After.
 */

export interface RateLimit {
  readonly requests: number;
  readonly windowSeconds: number;
}

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Counts requests per counter name; one process uses memory, several share Redis (ADR 0007). */
export interface RateLimiter {
  hit(counter: string, now: number): Promise<RateDecision>;
}

/** Whom a request is counted against: the API key that authenticated it, else its client address. */
export type RateSubject =
  | { readonly kind: 'key'; readonly keyId: string }
  | { readonly kind: 'address'; readonly address: string };

/**
 * The counter a subject's requests are counted in, the same for the in-process and the Redis
 * limiter: `key:apikey_…` or `address:203.0.113.9`. The prefixes keep a key and an address
 * apart whatever either is spelt as.
 */
export function rateCounterOf(subject: RateSubject): string {
  return subject.kind === 'key' ? `key:${subject.keyId}` : `address:${subject.address}`;
}

/** The limits of a service: one limiter for API keys, one for client addresses; null is no limit. */
export interface RequestRateLimits {
  hit(subject: RateSubject, now: number): Promise<RateDecision>;
}

const ALLOWED: RateDecision = { allowed: true };

/** Sends each subject to its kind's limiter; null when neither kind is limited. */
export function requestRateLimits(limiters: {
  readonly key: RateLimiter | null;
  readonly address: RateLimiter | null;
}): RequestRateLimits | null {
  const { key, address } = limiters;
  if (!key && !address) return null;
  return {
    hit: async (subject, now) => {
      const limiter = subject.kind === 'key' ? key : address;
      return limiter ? limiter.hit(rateCounterOf(subject), now) : ALLOWED;
    },
  };
}

/** The refusal's text: which budget ran out. */
export function rateRefusalDetail(subject: RateSubject, retryAfterSeconds: number): string {
  return subject.kind === 'key'
    ? `Too many requests with this API key; retry after ${retryAfterSeconds} seconds.`
    : `Too many requests from this address; retry after ${retryAfterSeconds} seconds.`;
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

  async hit(counter: string, now: number): Promise<RateDecision> {
    const windowMs = this.limit.windowSeconds * 1000;
    this.sweep(now, windowMs);
    const start = now - (now % windowMs);
    let window = this.windows.get(counter);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(counter, window);
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
