/**
 * @module
 * The client-wide hold after a 429. The seed says to stop sending until Retry-After has passed;
 * the service limits by address, so the hold covers every request of the client, not only the
 * one that was refused.
 */
import type { Runtime } from './runtime.js';

export class RequestGate {
  #openAt = 0;

  constructor(private readonly runtime: Runtime) {}

  /** Closes the gate for `seconds` from now (never shortens an existing hold). */
  hold(seconds: number): void {
    this.#openAt = Math.max(this.#openAt, this.runtime.now() + Math.max(0, seconds) * 1000);
  }

  /** When the gate opens, in epoch milliseconds; in the past when it is open. */
  get openAt(): number {
    return this.#openAt;
  }

  /** Resolves once the gate is open; a hold extended while waiting is honoured too. */
  async pass(): Promise<void> {
    for (let wait = this.#openAt - this.runtime.now(); wait > 0; wait = this.#openAt - this.runtime.now()) {
      await this.runtime.sleep(wait);
    }
  }
}

/** `Retry-After` as seconds: either delta-seconds or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
