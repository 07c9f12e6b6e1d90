/**
 * @module
 * The metering adapter for paid plans billed by Drawdown. Anonymous (free) clients and keys without a billing
 * customer stay on the local meter. For a linked key the answered lookups are reported to Drawdown in usage
 * events of one customer's lookups of up to a second (action `lookup`, quantity = the lookups, event key = the
 * first lookup's id, so a retry never counts twice; ADR 0217). Drawdown never refuses
 * usage, it records overage; this service refuses a Pro key once Drawdown says its lookups balance is depleted,
 * and serves it again after a renewal refills the balance. Scale has no allowance: recorded, never refused.
 */
import type { Subscription, UsageBalance, UsageReport } from '@drawdown/sdk';
import type { Clock } from '../shared/clock.js';
import { startOfNextMonth } from './calendar-month.js';
import type { ClientIdentity, LookupId, LookupMeter, MeterDecision } from './lookup-meter.js';
import { MONTHLY_LOOKUPS } from './plans.js';

/** The action of the `lookup` meter: one event per answered lookup. */
export const LOOKUP_ACTION = 'lookup';

/** How long a read of a customer's balance is trusted before it is read again (in the background). */
export const BALANCE_TTL_MS = 60_000;

/** The part of `@drawdown/sdk`'s `Drawdown` client the meter uses; a fake of this shape serves unit tests. */
export interface DrawdownMeteringClient {
  reportUsage(event: {
    customerId: string;
    action: string;
    quantity: string;
    eventKey: string;
    occurredAt: Date;
  }): Promise<UsageReport>;
  readonly usageBalances: {
    list(customerId: string, params: { usageBalanceUnitId: readonly string[] }): AsyncIterable<UsageBalance>;
  };
  readonly subscriptions: {
    list(params: {
      customerId: readonly string[];
      status: readonly Subscription['status'][];
    }): AsyncIterable<Subscription>;
  };
}

/** Finds the billing customer of an API key. */
export interface CustomerLookup {
  customerOf(keyId: string): string | undefined;
}

/** What the meter knows about one customer's lookups balance. */
export interface CustomerBillingState {
  readonly blocked: boolean;
  /** End of the subscription's current billing period, when known. */
  readonly periodEndsAt: Date | undefined;
  /** Allowance (used + remaining) at the last read, when known. */
  readonly allowance: number | undefined;
  /** Remaining at the last read, less the lookups recorded since; undefined before any read. */
  readonly remaining: number | undefined;
}

interface MutableState {
  blocked: boolean;
  periodEndsAt: Date | undefined;
  allowance: number | undefined;
  remaining: number | undefined;
  /** When the balance was last read (or a read last failed); 0 before any read. */
  checkedAt: number;
  /** Bumped by every depletion notice, so a read that started before one cannot undo it. */
  version: number;
  refreshing: Promise<void> | undefined;
}

/** Options of the Drawdown meter. */
export interface DrawdownLookupMeterOptions {
  readonly client: DrawdownMeteringClient;
  /** The meter for free clients and unlinked keys. */
  readonly local: LookupMeter;
  readonly customers: CustomerLookup;
  /** The `lookups` usage balance unit (`ubu_…`). */
  readonly lookupsUnitId: string;
  readonly clock: Clock;
  /** Where final failures to report are logged; default stderr. */
  readonly log?: (message: string) => void;
  readonly balanceTtlMs?: number;
}

/** Answered lookups of a customer are reported at most this long after the first of them... */
export const USAGE_BATCH_MS = 1_000;
/** ...or as soon as this many are gathered. */
export const USAGE_BATCH_LOOKUPS = 100;

// Lookup ids remembered so that recording one twice counts it once.
const RECORDED_IDS_KEPT = 10_000;

/** Answered lookups of one customer not yet reported. */
interface UsageBatch {
  readonly firstLookupId: LookupId;
  readonly occurredAt: Date;
  count: number;
}

const ACTIVE_STATUSES: readonly Subscription['status'][] = ['active', 'past_due', 'trialing'];

/** Meters paid keys through Drawdown. */
export class DrawdownLookupMeter implements LookupMeter {
  readonly #options: DrawdownLookupMeterOptions;
  readonly #states = new Map<string, MutableState>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #log: (message: string) => void;
  readonly #batches = new Map<string, UsageBatch>();
  readonly #recorded = new Set<LookupId>();
  #flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: DrawdownLookupMeterOptions) {
    this.#options = options;
    this.#log = options.log ?? ((message) => console.error(`price-search: ${message}`));
  }

  async authorize(client: ClientIdentity, lookupId: LookupId): Promise<MeterDecision> {
    const customerId = this.#customerOf(client);
    if (customerId === undefined || client.kind !== 'api_key') return this.#options.local.authorize(client, lookupId);

    // Scale is never refused, so its answer does not wait for a read of the balance.
    const state = client.plan === 'scale' ? this.#stateOf(customerId) : await this.#stateFor(customerId);
    const now = this.#options.clock.now();
    const resetsAt =
      state.periodEndsAt !== undefined && state.periodEndsAt > now ? state.periodEndsAt : startOfNextMonth(now);
    if (client.plan === 'scale') return { allowed: true, limit: undefined, remaining: undefined, resetsAt };

    const limit = state.allowance ?? MONTHLY_LOOKUPS.pro;
    if (state.blocked) return { allowed: false, reason: 'monthly_quota_exceeded', limit, resetsAt };
    const remaining = state.remaining === undefined ? undefined : Math.max(0, state.remaining - 1);
    return { allowed: true, limit: remaining === undefined ? undefined : limit, remaining, resetsAt };
  }

  async record(client: ClientIdentity, lookupId: LookupId): Promise<void> {
    const customerId = this.#customerOf(client);
    if (customerId === undefined) return this.#options.local.record(client, lookupId);

    const state = this.#states.get(customerId);
    if (state?.remaining !== undefined) state.remaining = Math.max(0, state.remaining - 1);
    // The answer does not wait for the billing service: lookups are gathered per customer and reported in one
    // usage event a second (ADR 0217); the SDK retries in the background and close() waits.
    // Idempotent per lookup id: an id recorded again (among the last RECORDED_IDS_KEPT) is not counted again.
    if (this.#recorded.has(lookupId)) return;
    this.#recorded.add(lookupId);
    if (this.#recorded.size > RECORDED_IDS_KEPT)
      this.#recorded.delete(this.#recorded.values().next().value as LookupId);
    const now = this.#options.clock.now();
    let batch = this.#batches.get(customerId);
    // A batch never spans the end of a billing period (or of a month when the period is unknown): each event is
    // charged to the period of its occurred_at.
    if (batch !== undefined && now >= this.#periodEndAfter(customerId, batch.occurredAt)) {
      this.#send(customerId, batch);
      batch = undefined;
    }
    if (batch === undefined) {
      batch = { firstLookupId: lookupId, occurredAt: now, count: 0 };
      this.#batches.set(customerId, batch);
    }
    batch.count += 1;
    if (batch.count >= USAGE_BATCH_LOOKUPS) this.#send(customerId, batch);
    else this.#flushTimer ??= setTimeout(() => this.flush(), USAGE_BATCH_MS).unref();
  }

  /** Reports every gathered batch now (one usage event per customer); `close()` does this first. */
  flush(): void {
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    for (const [customerId, batch] of this.#batches) this.#send(customerId, batch);
  }

  #periodEndAfter(customerId: string, occurredAt: Date): Date {
    const periodEndsAt = this.#states.get(customerId)?.periodEndsAt;
    return periodEndsAt !== undefined && periodEndsAt > occurredAt ? periodEndsAt : startOfNextMonth(occurredAt);
  }

  /**
   * One usage event for a batch: quantity = its lookups, event_key = its first lookup's id (unique, and fixed
   * before the first attempt, so the SDK's retries count once).
   */
  #send(customerId: string, batch: UsageBatch): void {
    this.#batches.delete(customerId);
    const { firstLookupId, occurredAt, count } = batch;
    const what = count === 1 ? `lookup ${firstLookupId}` : `${count} lookups from ${firstLookupId}`;
    this.#track(
      this.#options.client
        .reportUsage({
          customerId,
          action: LOOKUP_ACTION,
          quantity: String(count),
          eventKey: firstLookupId,
          occurredAt,
        })
        .then((report) => {
          if (report.kind !== 'accepted') {
            this.#log(`usage of ${what} for ${customerId} not counted (${report.kind}): ${describe(report)}`);
          }
        })
        .catch((error: unknown) => this.#log(`usage of ${what} for ${customerId} not reported: ${String(error)}`)),
    );
  }

  async release(client: ClientIdentity, lookupId: LookupId): Promise<void> {
    // Nothing is reserved remotely: an unanswered lookup is simply never reported.
    if (this.#customerOf(client) === undefined) await this.#options.local.release(client, lookupId);
  }

  /** Drawdown says the customer's balance of `unitId` reached zero. */
  noteDepleted(customerId: string, unitId: string): void {
    if (unitId !== this.#options.lookupsUnitId) return;
    const state = this.#stateOf(customerId);
    state.blocked = true;
    state.remaining = 0;
    state.version += 1;
  }

  /**
   * A subscription of the customer changed (a renewal among others): takes its billing period and reads the
   * balance afresh; a refilled balance lifts the block. Resolves when the read is done.
   */
  noteSubscriptionUpdated(customerId: string, subscription: Pick<Subscription, 'currentBillingPeriod'>): Promise<void> {
    const state = this.#stateOf(customerId);
    const endsAt = subscription.currentBillingPeriod?.endsAt;
    if (endsAt !== undefined) state.periodEndsAt = new Date(endsAt);
    return this.#track(this.#refresh(customerId, state, { withSubscription: false }));
  }

  /** What the meter currently believes about a customer (for operators and tests). */
  stateOf(customerId: string): CustomerBillingState | undefined {
    const state = this.#states.get(customerId);
    if (state === undefined) return undefined;
    const { blocked, periodEndsAt, allowance, remaining } = state;
    return { blocked, periodEndsAt, allowance, remaining };
  }

  /** Reports the gathered lookups, then waits for every usage report and balance read under way. */
  async close(): Promise<void> {
    this.flush();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #customerOf(client: ClientIdentity): string | undefined {
    return client.kind === 'api_key' ? this.#options.customers.customerOf(client.keyId) : undefined;
  }

  #stateOf(customerId: string): MutableState {
    let state = this.#states.get(customerId);
    if (state === undefined) {
      state = {
        blocked: false,
        periodEndsAt: undefined,
        allowance: undefined,
        remaining: undefined,
        checkedAt: 0,
        version: 0,
        refreshing: undefined,
      };
      this.#states.set(customerId, state);
    }
    return state;
  }

  /** The first use waits for a read (so a restart does not forget a depletion); later reads happen behind. */
  async #stateFor(customerId: string): Promise<MutableState> {
    const state = this.#stateOf(customerId);
    const ttl = this.#options.balanceTtlMs ?? BALANCE_TTL_MS;
    const age = Date.now() - state.checkedAt;
    if (state.checkedAt === 0) await this.#startRefresh(customerId, state);
    else if (age > ttl) void this.#startRefresh(customerId, state);
    return state;
  }

  #startRefresh(customerId: string, state: MutableState): Promise<void> {
    state.refreshing ??= this.#track(
      this.#refresh(customerId, state, { withSubscription: state.periodEndsAt === undefined }).finally(() => {
        state.refreshing = undefined;
      }),
    );
    return state.refreshing;
  }

  async #refresh(customerId: string, state: MutableState, options: { withSubscription: boolean }): Promise<void> {
    const version = state.version;
    try {
      const [balance, subscription] = await Promise.all([
        first(
          this.#options.client.usageBalances.list(customerId, { usageBalanceUnitId: [this.#options.lookupsUnitId] }),
        ),
        options.withSubscription
          ? first(this.#options.client.subscriptions.list({ customerId: [customerId], status: ACTIVE_STATUSES }))
          : Promise.resolve(undefined),
      ]);
      const endsAt = subscription?.currentBillingPeriod?.endsAt;
      if (endsAt !== undefined) state.periodEndsAt = new Date(endsAt);
      // A depletion notice that arrived while reading is newer than what was read.
      if (state.version !== version) return;
      if (balance === undefined) {
        // No balance of the unit: no allowance (Scale, or no subscription yet). Nothing to block on.
        state.blocked = false;
        state.allowance = undefined;
        state.remaining = undefined;
        return;
      }
      const remaining = wholeLookups(balance.balance.remaining.total);
      state.allowance = wholeLookups(balance.balance.used.total) + remaining;
      state.remaining = remaining;
      state.blocked = remaining <= 0;
    } catch (error) {
      // The billing service being unreachable must not take lookups down: keep what is known, try later.
      this.#log(`could not read the lookups balance of ${customerId}: ${String(error)}`);
    } finally {
      state.checkedAt = Date.now();
    }
  }

  #track<T>(work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
    return tracked;
  }
}

async function first<T>(items: AsyncIterable<T>): Promise<T | undefined> {
  for await (const item of items) return item;
  return undefined;
}

/** Balances are decimal strings; lookups are whole, so the integer part is exact. */
function wholeLookups(total: string): number {
  const integer = /^-?\d+/.exec(total)?.[0] ?? '0';
  return Number.parseInt(integer, 10);
}

function describe(report: UsageReport): string {
  switch (report.kind) {
    case 'accepted':
      return 'accepted';
    case 'rejected':
    case 'gave_up':
      return `${report.code}: ${report.detail}`;
    case 'expired':
      return `${report.code}: ${report.detail}${report.mayHaveCounted ? ' (an earlier attempt may have counted)' : ''}`;
  }
}
