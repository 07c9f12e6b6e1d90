/**
 * @module
 * Sign-in throttling: failed attempts are counted per client address and per email in a sliding
 * window; past the limit, sign-in answers 429 with Retry-After until the oldest failure leaves the
 * window. A success clears the email's count (ADR 0804).
 */

export interface LoginRateLimitOptions {
  /** Failures allowed per email in the window. Default 5. */
  readonly perEmail?: number;
  /** Failures allowed per client address in the window. Default 20. */
  readonly perAddress?: number;
  /** Default 15 minutes. */
  readonly windowMs?: number;
  readonly now?: () => number;
}

export class LoginRateLimiter {
  readonly #failures = new Map<string, number[]>();
  readonly #perEmail: number;
  readonly #perAddress: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: LoginRateLimitOptions = {}) {
    this.#perEmail = options.perEmail ?? 5;
    this.#perAddress = options.perAddress ?? 20;
    this.#windowMs = options.windowMs ?? 15 * 60 * 1000;
    this.#now = options.now ?? Date.now;
  }

  #recent(key: string): number[] {
    const cutoff = this.#now() - this.#windowMs;
    const times = (this.#failures.get(key) ?? []).filter((time) => time > cutoff);
    if (times.length === 0) this.#failures.delete(key);
    else this.#failures.set(key, times);
    return times;
  }

  /** Seconds to wait before another attempt is allowed; 0 when allowed now. */
  retryAfterSeconds(address: string, email: string): number {
    const checks: [string, number][] = [
      [`address:${address}`, this.#perAddress],
      [`email:${email.toLowerCase()}`, this.#perEmail],
    ];
    let wait = 0;
    for (const [key, limit] of checks) {
      const times = this.#recent(key);
      if (times.length >= limit) {
        const oldest = times[times.length - limit] ?? this.#now();
        wait = Math.max(wait, Math.ceil((oldest + this.#windowMs - this.#now()) / 1000));
      }
    }
    return wait;
  }

  recordFailure(address: string, email: string): void {
    const now = this.#now();
    if (this.#failures.size > 50_000) this.#failures.clear();
    for (const key of [`address:${address}`, `email:${email.toLowerCase()}`]) {
      this.#failures.set(key, [...this.#recent(key), now]);
    }
  }

  recordSuccess(email: string): void {
    this.#failures.delete(`email:${email.toLowerCase()}`);
  }
}
