/**
 * @module
 * The metering port. The HTTP layer asks it whether a client may make a lookup, then tells it whether the
 * lookup was answered. The local adapter counts in SQLite; a billing adapter (usage events through the
 * Drawdown SDK, blocking a Pro key when its usage balance is depleted) implements the same interface.
 */
import type { Plan } from './plans.js';

/** Identifies one lookup; unique, so a remote meter can use it as the usage event's idempotency key. */
export type LookupId = string & { readonly __brand: 'LookupId' };

/** Who is asking. */
export type ClientIdentity =
  | {
      readonly kind: 'anonymous';
      readonly plan: 'free' /** Client address; IPv6 reduced to its /64. */;
      readonly address: string;
    }
  | { readonly kind: 'api_key'; readonly plan: Exclude<Plan, 'free'>; readonly keyId: string };

/** The counter a client's lookups are charged to. */
export function meterKeyOf(client: ClientIdentity): string {
  return client.kind === 'anonymous' ? `ip:${client.address}` : `key:${client.keyId}`;
}

/** The answer of `authorize`. */
export type MeterDecision =
  | {
      readonly allowed: true;
      /** Monthly allowance; undefined when unlimited. */
      readonly limit: number | undefined;
      /** Lookups left after this one; undefined when unlimited. */
      readonly remaining: number | undefined;
      readonly resetsAt: Date;
    }
  | {
      readonly allowed: false;
      readonly reason: 'monthly_quota_exceeded';
      readonly limit: number;
      /** When lookups are allowed again (next calendar month, or the subscription's renewal). */
      readonly resetsAt: Date;
    };

/** Decides and counts lookups. */
export interface LookupMeter {
  /**
   * Decides whether `client` may make lookup `lookupId` now. An allowed decision holds a reservation until
   * `record` or `release`, so concurrent lookups cannot overrun the allowance.
   */
  authorize(client: ClientIdentity, lookupId: LookupId): Promise<MeterDecision>;
  /** Counts an answered lookup (results found or not). Idempotent per lookupId. */
  record(client: ClientIdentity, lookupId: LookupId): Promise<void>;
  /** Gives back the reservation of a lookup that was not answered (every network failed). */
  release(client: ClientIdentity, lookupId: LookupId): Promise<void>;
}
