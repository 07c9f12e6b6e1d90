/**
 * @module
 * The storage ports. Adapters implement them for SQLite and PostgreSQL
 * (`@drawdown/billing-store`); the core sees only these interfaces.
 */

import type { Account, ApiKey } from '../access/account.js';
import type { ClientTokenRepository } from '../access/client-tokens.js';
import type { CustomerAuthTokenRepository } from '../access/customer-auth-tokens.js';
import type { Address, Business, Customer, Meter, Price, Product, UsageBalanceUnit } from '../catalogue/entities.js';
import type { Discount, DiscountGroup } from '../discounts/discount.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { SellerDetails } from '../invoices/seller-details.js';
import type { MetricRollupRepository } from '../metrics/metric-rollups.js';
import type {
  NotificationRepository,
  NotificationSettingRepository,
} from '../notifications/notification-repository.js';
import type { PaymentRepositories } from '../payments/payment-repositories.js';
import type {
  ProviderCustomerRepository,
  ProviderNotificationLog,
  ProviderSettingsRepository,
} from '../payments/provider-settings.js';
import type { ReportRepository } from '../reports/report.js';
import type {
  Simulation,
  SimulationColumn,
  SimulationRunEventRepository,
  SimulationRunRepository,
} from '../simulations/simulation.js';
import type { SimulationSpendingRepository } from '../simulations/simulation-budget.js';
import type { Subscription } from '../subscriptions/subscription.js';
import type { TaxIdCheck } from '../tax/tax-id-checks.js';
import type { CreditBalanceRepository } from '../transactions/credit-balances.js';
import type { RecoveryRunRepository } from '../transactions/payment-recovery.js';
import type {
  AdjustmentRepository,
  BillingSettingsRepository,
  TransactionRepository,
} from '../transactions/transaction-repository.js';
import type { TransactionRevision } from '../transactions/transaction-revision.js';
import type { LedgerEntry } from '../usage/balance-ledger.js';
import type { UsageBalance } from '../usage/usage-balance.js';
import type { RecordedUsageEvent, UsageEventInput } from '../usage/usage-event.js';
import type { Collection } from './collection.js';
import type { ListQuery, Page } from './pagination.js';
import type { Environment, Scope } from './scope.js';

export { type Collection, DuplicateKeyError } from './collection.js';

export type ProductColumn = 'id' | 'status' | 'type' | 'tax_category';
export type PriceColumn = 'id' | 'product_id' | 'status' | 'type' | 'recurring';
export type CustomerColumn = 'id' | 'status' | 'email' | 'search';
export type AddressColumn = 'id' | 'customer_id' | 'status' | 'search';
export type BusinessColumn = 'id' | 'customer_id' | 'status' | 'search';
export type UsageBalanceUnitColumn = 'id' | 'status';
export type MeterColumn = 'id' | 'status' | 'usage_balance_unit_id' | 'action';
export type EventColumn = 'id' | 'event_type';
export type SubscriptionColumn =
  | 'id'
  | 'customer_id'
  | 'address_id'
  | 'status'
  | 'collection_mode'
  | 'scheduled_change_action'
  /** Every item's price id, each between spaces. */
  | 'price_ids'
  | 'next_billed_at';
/** `code` is lower-cased; `expires_key` is the expiry, or a far-future instant for none. */
export type DiscountColumn = 'id' | 'status' | 'code' | 'mode' | 'discount_group_id' | 'expires_key';
export type DiscountGroupColumn = 'id' | 'status';
export type UsageBalanceColumn = 'id' | 'customer_id' | 'usage_balance_unit_id';

export interface SubscriptionRepository extends Collection<Subscription, SubscriptionColumn> {
  /** Ids of the scope's subscriptions with a renewal or scheduled change due at or before `until`, earliest first. */
  findDue(scope: Scope, until: string, limit: number): Promise<readonly string[]>;
  /** Accounts with a subscription in `environment` due at or before `until`. */
  findDueAccounts(environment: Environment, until: string): Promise<readonly string[]>;
}

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

/** What accepting one event did: stored it, found it already stored, or found no such customer. */
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

export interface SandboxClockRepository {
  /** How far the account's sandbox clock runs ahead of the wall clock, in milliseconds. */
  offsetOf(accountId: string): Promise<number>;
  setOffset(accountId: string, offsetMs: number): Promise<void>;
  listOffsets(): Promise<readonly { readonly accountId: string; readonly offsetMs: number }[]>;
  /** How the account's simulated card settles sandbox charges; `success` until set (ADR 1003). */
  paymentOutcomeOf(accountId: string): Promise<'success' | 'failure'>;
  setPaymentOutcome(accountId: string, outcome: 'success' | 'failure'): Promise<void>;
  /**
   * Adds `steps` to the account's count of jump steps on `day` (a UTC date) when the sum stays
   * within `perDay`, in one statement; false, and nothing written, when it would not (ADR 1487).
   */
  reserveJumpSteps(accountId: string, day: string, steps: number, perDay: number): Promise<boolean>;
  /** The account's count of jump steps on `day`; 0 when none ran. */
  jumpStepsOn(accountId: string, day: string): Promise<number>;
  /** Corrects the count of `day` by `delta` steps (never below 0); nothing once the day has passed. */
  adjustJumpSteps(accountId: string, day: string, delta: number): Promise<void>;
}

export interface AccountRepository {
  insert(account: Account): Promise<void>;
  findById(id: string): Promise<Account | undefined>;
  list(): Promise<readonly Account[]>;
  /**
   * Records `accountId` as the installation's one demo account, unless one is recorded already
   * (by this process or another): true when this call recorded it. Run it in the transaction
   * that creates the account, so two first starts make one demo account between them.
   */
  claimDemoAccount(accountId: string, createdAt: string): Promise<boolean>;
  /** The demo account's id, when `drawdown init` (or `serve --demo`) made one. */
  demoAccountId(): Promise<string | undefined>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findById(id: string): Promise<ApiKey | undefined>;
  /** The key and its account in one read: authentication runs it on every request. */
  findWithAccount(id: string): Promise<{ readonly key: ApiKey; readonly account: Account | undefined } | undefined>;
  /** Marks the key revoked at `revokedAt`; false when no such key exists. */
  revoke(id: string, revokedAt: string): Promise<boolean>;
  listByAccount(accountId: string, environment?: Environment): Promise<readonly ApiKey[]>;
  /**
   * Accounts of `environment` with an unrevoked key owed an expiry notice: `api_key.expiring`
   * once it expires at or before `expiringUntil`, `api_key.expired` once at or before `now`.
   */
  findExpiryNoticeAccounts(environment: Environment, now: string, expiringUntil: string): Promise<readonly string[]>;
  /** The keys of one account environment owed a notice, held until commit; `notice` is the one already sent. */
  claimExpiryNotices(
    scope: Scope,
    now: string,
    expiringUntil: string,
  ): Promise<readonly { readonly key: ApiKey; readonly notice: ApiKeyExpiryNotice | null }[]>;
  setExpiryNotice(id: string, notice: ApiKeyExpiryNotice): Promise<void>;
}

export type ApiKeyExpiryNotice = 'expiring' | 'expired';

export interface EventLog {
  /** Appends an event in the current transaction: the outbox row of the change that caused it. */
  append(scope: Scope, event: StoredEvent): Promise<void>;
  list(scope: Scope, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>>;
}

export interface Repositories extends PaymentRepositories {
  readonly accounts: AccountRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly products: Collection<Product, ProductColumn>;
  readonly prices: Collection<Price, PriceColumn>;
  readonly customers: Collection<Customer, CustomerColumn>;
  readonly addresses: Collection<Address, AddressColumn>;
  readonly businesses: Collection<Business, BusinessColumn>;
  /** One revision per transaction, keyed by the transaction id (ADR 1102). */
  readonly transactionRevisions: Collection<TransactionRevision, 'id'>;
  readonly usageBalanceUnits: Collection<UsageBalanceUnit, UsageBalanceUnitColumn>;
  readonly meters: Collection<Meter, MeterColumn>;
  readonly discounts: Collection<Discount, DiscountColumn>;
  readonly discountGroups: Collection<DiscountGroup, DiscountGroupColumn>;
  readonly events: EventLog;
  readonly notificationSettings: NotificationSettingRepository;
  readonly notifications: NotificationRepository;
  readonly subscriptions: SubscriptionRepository;
  readonly usageBalances: UsageBalanceRepository;
  readonly usageEvents: UsageEventRepository;
  readonly sandboxClocks: SandboxClockRepository;
  readonly transactions: TransactionRepository;
  readonly adjustments: AdjustmentRepository;
  readonly billingSettings: BillingSettingsRepository;
  readonly simulations: Collection<Simulation, SimulationColumn>;
  readonly simulationRuns: SimulationRunRepository;
  readonly simulationRunEvents: SimulationRunEventRepository;
  /** What each account environment's simulations sent recently, for their budget (ADR 1486). */
  readonly simulationSpending: SimulationSpendingRepository;
  readonly metricRollups: MetricRollupRepository;
  readonly reports: ReportRepository;
  readonly creditBalances: CreditBalanceRepository;
  readonly clientTokens: ClientTokenRepository;
  readonly customerAuthTokens: CustomerAuthTokenRepository;
  /** Each account environment's payment provider and credentials (ADR 1420). */
  readonly providerSettings: ProviderSettingsRepository;
  readonly providerCustomers: ProviderCustomerRepository;
  readonly providerNotifications: ProviderNotificationLog;
  /** The seller the account environment's documents name (ADR 1106), as document `seller`. */
  readonly sellerDetails: Collection<SellerDetails, 'id'>;
  /** VIES verdicts on VAT ids, keyed by the prefixed id (ADR 1437). */
  readonly taxIdChecks: Collection<TaxIdCheck, 'id'>;
  /** Payment recovery of declined subscription charges, one run per transaction (ADR 1460). */
  readonly recoveryRuns: RecoveryRunRepository;
}

/**
 * The whole store. Its own repositories read outside any transaction; `transaction` runs
 * work atomically: every write in it, outbox rows included, commits together or not at all.
 */
export interface Store extends Repositories {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  readonly usageIngest: UsageEventIngest;
  close(): Promise<void>;
}
