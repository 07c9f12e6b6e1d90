/**
 * @module
 * Sandbox time control (sandbox address only): read the account's sandbox clock, or move it
 * forward, running every renewal, scheduled change and expiry that falls due, in order.
 */
import type { RequestOptions } from '../core/http-client.js';
import { Resource } from './resource.js';

export interface SandboxClock {
  /** The sandbox's current time. */
  readonly now: string;
  /** How far the sandbox runs ahead of the wall clock. */
  readonly offsetSeconds: number;
}

export interface AdvancedSandboxClock extends SandboxClock {
  /** Renewals, scheduled changes and expiries run by this move. */
  readonly stepsRun: number;
}

/** Forward by a number of seconds, or to a time. The clock never goes back. */
export type AdvanceSandboxClockInput = { readonly seconds: number } | { readonly to: string | Date };

export class SandboxClockResource extends Resource {
  get(options?: RequestOptions): Promise<SandboxClock> {
    return this.data({ method: 'GET', path: '/sandbox-clock', ...options });
  }

  /**
   * @example
   * await drawdown.sandboxClock.advance({ seconds: 31 * 86_400 }); // a month of renewals, now
   */
  advance(input: AdvanceSandboxClockInput, options?: RequestOptions): Promise<AdvancedSandboxClock> {
    const body = 'to' in input ? { to: input.to instanceof Date ? input.to.toISOString() : input.to } : input;
    // Not repeated on a lost answer: a second `seconds` move would go twice as far.
    return this.data({ method: 'POST', path: '/sandbox-clock/advance', body, ...options });
  }
}
