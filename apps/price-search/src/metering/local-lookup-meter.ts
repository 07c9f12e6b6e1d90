/**
 * @module
 * The meter used when no billing service is configured: monthly allowances of the plans, counted in SQLite
 * per calendar month (UTC). One process owns the state database (ADR 0201), so the counts live in memory once
 * read, and answered lookups are written in batches, one transaction at most every second (ADR 0217) rather
 * than one synchronous write per request. Quota decisions always see every recorded lookup, written or not.
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

/** Answered lookups are written at most this long after they were recorded. */
export const QUOTA_FLUSH_INTERVAL_MS = 1_000;
/** ...or as soon as this many are waiting. */
export const QUOTA_FLUSH_BATCH = 1_000;
// Counters held in memory; past this, those with nothing waiting are dropped after a flush (read again on use).
const COUNTERS_KEPT = 50_000;

/** One meter key's month: what the store holds, what waits to be written, what is reserved. */
interface Counter {
  readonly meterKey: string;
  readonly month: string;
  stored: number;
  unwritten: number;
  reserved: number;
}

/** Local quotas. */
export class LocalLookupMeter implements LookupMeter {
  readonly #reservations = new Map<LookupId, Counter>();
  readonly #counters = new Map<string, Counter>();
  #unwritten = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: QuotaStore,
    private readonly clock: Clock,
    private readonly allowances: Readonly<Record<Plan, number | undefined>> = MONTHLY_LOOKUPS,
    private readonly log: (message: string) => void = (message) => console.error(message),
  ) {}

  async authorize(client: ClientIdentity, lookupId: LookupId): Promise<MeterDecision> {
    const now = this.clock.now();
    const counter = this.#counter(meterKeyOf(client), monthKey(now));
    const resetsAt = startOfNextMonth(now);
    const limit = this.allowances[client.plan];
    const taken = counter.stored + counter.unwritten + counter.reserved;
    if (limit !== undefined && taken >= limit) {
      return { allowed: false, reason: 'monthly_quota_exceeded', limit, resetsAt };
    }
    counter.reserved += 1;
    this.#reservations.set(lookupId, counter);
    return { allowed: true, limit, remaining: limit === undefined ? undefined : limit - taken - 1, resetsAt };
  }

  async record(_client: ClientIdentity, lookupId: LookupId): Promise<void> {
    const counter = this.#reservations.get(lookupId);
    if (counter === undefined) return;
    this.#reservations.delete(lookupId);
    // Charged to the month of authorization: a lookup that straddles midnight on the 1st counts once, there.
    counter.reserved -= 1;
    counter.unwritten += 1;
    this.#unwritten += 1;
    if (this.#unwritten >= QUOTA_FLUSH_BATCH) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), QUOTA_FLUSH_INTERVAL_MS).unref();
  }

  async release(_client: ClientIdentity, lookupId: LookupId): Promise<void> {
    const counter = this.#reservations.get(lookupId);
    if (counter === undefined) return;
    this.#reservations.delete(lookupId);
    counter.reserved -= 1;
  }

  /**
   * Writes every recorded lookup not yet written, in one transaction. When the write fails the counts stay in
   * memory (still counted against the allowance) and are tried again with the next batch.
   */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#unwritten === 0) return;
    const waiting = [...this.#counters.values()].filter((counter) => counter.unwritten > 0);
    try {
      this.store.addAll(waiting.map((counter) => [counter.meterKey, counter.month, counter.unwritten] as const));
    } catch (error) {
      this.log(`price-search: quota counts not written, kept for the next batch: ${String(error)}`);
      this.#timer = setTimeout(() => this.flush(), QUOTA_FLUSH_INTERVAL_MS).unref();
      return;
    }
    for (const counter of waiting) {
      counter.stored += counter.unwritten;
      counter.unwritten = 0;
    }
    this.#unwritten = 0;
    if (this.#counters.size > COUNTERS_KEPT) {
      for (const [key, counter] of this.#counters) {
        if (counter.reserved === 0) this.#counters.delete(key);
      }
    }
  }

  #counter(meterKey: string, month: string): Counter {
    const key = `${meterKey}\n${month}`;
    let counter = this.#counters.get(key);
    if (counter === undefined) {
      counter = { meterKey, month, stored: this.store.used(meterKey, month), unwritten: 0, reserved: 0 };
      this.#counters.set(key, counter);
    }
    return counter;
  }
}
