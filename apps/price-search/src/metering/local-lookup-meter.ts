/**
 * @module
 * The meter used when no billing service is configured: monthly allowances of the plans, counted in SQLite
 * per calendar month (UTC). Reservations live in memory: one process owns the state database.
 */
import type { Clock } from '../shared/clock.js';
import { monthKey, startOfNextMonth } from './calendar-month.js';
import {
  type ClientIdentity,
  type LookupId,
  type LookupMeter,
  type MeterDecision,
  meterKeyOf,
} from './lookup-meter.js';
import { MONTHLY_LOOKUPS, type Plan } from './plans.js';
import type { QuotaStore } from './quota-store.js';

interface Reservation {
  readonly meterKey: string;
  readonly month: string;
}

/** Local quotas. */
export class LocalLookupMeter implements LookupMeter {
  readonly #reservations = new Map<LookupId, Reservation>();

  constructor(
    private readonly store: QuotaStore,
    private readonly clock: Clock,
    private readonly allowances: Readonly<Record<Plan, number | undefined>> = MONTHLY_LOOKUPS,
  ) {}

  async authorize(client: ClientIdentity, lookupId: LookupId): Promise<MeterDecision> {
    const now = this.clock.now();
    const month = monthKey(now);
    const meterKey = meterKeyOf(client);
    const resetsAt = startOfNextMonth(now);
    const limit = this.allowances[client.plan];
    const taken = this.store.used(meterKey, month) + this.#pending(meterKey, month);
    if (limit !== undefined && taken >= limit) {
      return { allowed: false, reason: 'monthly_quota_exceeded', limit, resetsAt };
    }
    this.#reservations.set(lookupId, { meterKey, month });
    return { allowed: true, limit, remaining: limit === undefined ? undefined : limit - taken - 1, resetsAt };
  }

  async record(_client: ClientIdentity, lookupId: LookupId): Promise<void> {
    const reservation = this.#reservations.get(lookupId);
    if (reservation === undefined) return;
    this.#reservations.delete(lookupId);
    // Charged to the month of authorization: a lookup that straddles midnight on the 1st counts once, there.
    this.store.increment(reservation.meterKey, reservation.month);
  }

  async release(_client: ClientIdentity, lookupId: LookupId): Promise<void> {
    this.#reservations.delete(lookupId);
  }

  #pending(meterKey: string, month: string): number {
    let count = 0;
    for (const reservation of this.#reservations.values()) {
      if (reservation.meterKey === meterKey && reservation.month === month) count += 1;
    }
    return count;
  }
}
