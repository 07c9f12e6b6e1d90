/**
 * @module
 * Storage ports of usage: balances with their ledgers, accepted events, and durable ingest.
 */
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { EventRepositories } from '../events/repositories.js';

import type { ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import type { LedgerEntry } from './balance-ledger.js';
import type { UsageBalance } from './usage-balance.js';
import type { RecordedUsageEvent, UsageEventInput } from './usage-event.js';

export type UsageBalanceColumn = 'id' | 'customer_id' | 'usage_balance_unit_id';

/** Which balance: a customer's balance of one unit, in one scope. */
export interface BalanceKey {
  readonly scope: Scope;
  readonly customerId: string;
  readonly unitId: string;
}

/** A balance's new state and the ledger entries that produced it. */
export interface BalanceChange {
  readonly scope: Scope;
  readonly balance: UsageBalance;
  readonly entries: readonly LedgerEntry[];
}

export interface UsageBalanceRepository {
  findById(scope: Scope, id: string): Promise<UsageBalance | undefined>;
  list(scope: Scope, query: ListQuery<UsageBalanceColumn>): Promise<Page<UsageBalance>>;
  /**
   * Locks the balance of a customer and unit until commit, first creating `create` when there
   * is none (two processes creating the same balance at once end up with one).
   */
  lock(scope: Scope, customerId: string, unitId: string, create?: UsageBalance): Promise<UsageBalance | undefined>;
  /** Stores the new state and appends the ledger entries that produced it. */
  save(scope: Scope, balance: UsageBalance, entries: readonly LedgerEntry[]): Promise<void>;
  /**
   * Locks the balances of many customers and units until commit, in the order given (callers
   * sort, so two lockers never wait on each other crosswise); undefined where there is none.
   * On PostgreSQL one statement, whatever the count (ADR 0712).
   */
  lockMany(keys: readonly BalanceKey[]): Promise<readonly (UsageBalance | undefined)[]>;
  /** `save` for many balances at once, their ledger entries appended in the order given. */
  saveMany(changes: readonly BalanceChange[]): Promise<void>;
  ledger(scope: Scope, balanceId: string): Promise<readonly LedgerEntry[]>;
}

export interface PendingUsageEvent {
  readonly scope: Scope;
  /** The storage order of acceptance; drawdowns apply in this order. */
  readonly sequence: number;
  readonly event: RecordedUsageEvent;
}

export interface UsageEventRepository {
  /** The oldest accepted events not yet drawn down, held until commit so no other worker takes them. */
  claimPending(limit: number, scope?: Scope): Promise<readonly PendingUsageEvent[]>;
  /**
   * Claims like `claimPending` and removes the claimed events from the pending list, in one
   * statement on PostgreSQL (ADRs 0716, 0717): the drawdown's transaction commits their removal
   * with the balances, or rolls both back and they are pending again. Oldest first.
   */
  takePending(limit: number, scope?: Scope): Promise<readonly PendingUsageEvent[]>;
  /** Whether any accepted event of the scope is not yet drawn down, claimed by a worker or not. */
  hasPending(scope: Scope): Promise<boolean>;
  /** Every recorded event of a customer, oldest first (for recomputation and audits). */
  listByCustomer(scope: Scope, customerId: string): Promise<readonly RecordedUsageEvent[]>;
}

/** An archived customer's events are refused like other references to an archived entity (ADR 0902). */
export type IngestOutcome = 'recorded' | 'duplicate' | 'unknown_customer' | 'archived_customer';

/**
 * Durable acceptance of usage events. Concurrent calls share commits (group commit): each
 * resolves only once its event is durably stored, so a 202 survives a crash.
 */
export interface UsageEventIngest {
  record(scope: Scope, event: UsageEventInput & { readonly id: string }, acceptedAt: string): Promise<IngestOutcome>;
  /** Called after every commit that stored new events (the drawdown worker listens). */
  onRecorded(listener: () => void): void;
}

/** What recording usage reads beyond its slice: the store's durable ingest. */
export interface IngestPorts {
  readonly store: { readonly usageIngest: UsageEventIngest };
}

/** The repositories usage owns (ingest is the store's, outside transactions). */
export interface UsageRepositories {
  readonly usageBalances: UsageBalanceRepository;
  readonly usageEvents: UsageEventRepository;
}

/** What usage uses: its repositories, customers and the event log. */
export interface UsageSlice extends UsageRepositories, Pick<CatalogueRepositories, 'customers'>, EventRepositories {}
