/**
 * @module
 * The metering adapter for paid plans billed by Drawdown. Anonymous (free) clients and keys without a billing
 * customer stay on the local meter. For a linked key every answered lookup is reported to Drawdown as one usage
 * event (action `lookup`, event key = the lookup id, so a retry never counts twice). Drawdown never refuses
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

const ACTIVE_STATUSES: readonly Subscription['status'][] = ['active', 'past_due', 'trialing'];

/** Meters paid keys through Drawdown. */
export class DrawdownLookupMeter implements LookupMeter {
  readonly #options: DrawdownLookupMeterOptions;
  readonly #states = new Map<string, MutableState>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #log: (message: string) => void;

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
    // The answer does not wait for the billing service: the SDK retries in the background and close() waits.
    this.#track(
      this.#options.client
        .reportUsage({
          customerId,
          action: LOOKUP_ACTION,
          quantity: '1',
          eventKey: lookupId,
          occurredAt: this.#options.clock.now(),
        })
        .then((report) => {
          if (report.kind !== 'accepted') {
            this.#log(
              `usage of lookup ${lookupId} for ${customerId} not counted (${report.kind}): ${describe(report)}`,
            );
          }
        })
        .catch((error: unknown) =>
          this.#log(`usage of lookup ${lookupId} for ${customerId} not reported: ${String(error)}`),
        ),
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

  /** Waits for every usage report and balance read under way. */
  async close(): Promise<void> {
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
