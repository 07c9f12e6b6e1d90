/**
 * @module
 * Storage ports of transactions: transactions, adjustments, billing settings, revisions, credit
 * balances, payment recovery runs, saved payment methods and checkout settings. Adapters live in
 * `@drawdown/billing-store`; the core sees only these interfaces.
 */
import type { DiscountSlice } from '../discounts/repositories.js';
import type { MetricSlice } from '../metrics/repositories.js';
import type { Collection } from '../shared/collection.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { TaxSlice } from '../tax/repositories.js';
import type { Adjustment } from './adjustment.js';
import type {
  CheckoutSettings,
  CreditBalance,
  CreditLedgerEntry,
  RecoveryRun,
  TaxSettings,
  TransactionRevision,
} from './entities.js';
import type { PaymentMethod, PaymentMethodColumn } from './saved-methods.js';
import type { Transaction } from './transaction.js';

export type TransactionColumn =
  | 'id'
  | 'customer_id'
  | 'status'
  | 'subscription_id'
  | 'collection_mode'
  | 'invoice_number'
  | 'origin'
  | 'billed_at'
  | 'created_at'
  | 'updated_at';

/** The keys a transaction list can be ordered by. `created_at` order is id order (ids are ULIDs). */
export type TransactionOrder = 'id' | 'billed_at' | 'updated_at';

export interface TransactionListQuery extends ListQuery<TransactionColumn> {
  /**
   * `billed_at` orders unbilled transactions first (ascending), then by id among equal times;
   * `updated_at` by the last change, then by id.
   */
  readonly orderBy: TransactionOrder;
}

export interface TransactionRepository extends Collection<Transaction, TransactionColumn> {
  list(scope: Scope, query: ListQuery<TransactionColumn> | TransactionListQuery): Promise<Page<Transaction>>;
  /**
   * Takes the next invoice number of the scope's `year` sequence, atomically: two concurrent
   * callers never get the same number. The first number of a year is 1.
   */
  nextInvoiceNumber(scope: Scope, year: number): Promise<number>;
  /** Ids of billed transactions whose unpaid grace ended at or before `now`, oldest first. */
  findOverdue(scope: Scope, now: string, limit: number): Promise<readonly string[]>;
  /** Accounts of `environment` with at least one billed transaction whose grace ended at or before `until`. */
  findOverdueAccounts(environment: Scope['environment'], until: string): Promise<readonly string[]>;
  /**
   * Whether a provider payment of the transaction is in flight (an attempt `processing` or
   * `requires_action`: a challenge, a browser's confirmation, a provider round trip). Read inside
   * the database transaction holding the transaction's row lock, it cannot change before commit:
   * attempts begin only under that lock (ADR 1468).
   */
  hasPaymentInFlight(scope: Scope, transactionId: string): Promise<boolean>;
}

export type AdjustmentColumn = 'id' | 'transaction_id' | 'customer_id' | 'subscription_id' | 'action' | 'status';

export type AdjustmentRepository = Collection<Adjustment, AdjustmentColumn>;

export interface BillingSettingsRepository {
  findTaxSettings(scope: Scope): Promise<TaxSettings | undefined>;
  saveTaxSettings(scope: Scope, settings: TaxSettings): Promise<void>;
  /**
   * The service-wide secret named `name`: the stored one, or `candidate` stored now when there
   * is none (several processes starting together agree on one).
   */
  obtainServiceSecret(name: string, candidate: string): Promise<string>;
}

export interface CreditBalanceRepository {
  /** The customer's balances, one per currency that ever held credit, by currency code. */
  list(scope: Scope, customerId: string): Promise<readonly CreditBalance[]>;
  /** The balance of a customer and currency, created empty when missing, held until commit. */
  lock(scope: Scope, customerId: string, currencyCode: string): Promise<CreditBalance>;
  /** Stores the new state and appends the entries that produced it. */
  save(scope: Scope, balance: CreditBalance, entries: readonly CreditLedgerEntry[]): Promise<void>;
  /** The ledger of a customer and currency, oldest first. */
  ledger(scope: Scope, customerId: string, currencyCode: string): Promise<readonly CreditLedgerEntry[]>;
}

export type RecoveryRunColumn = 'id' | 'subscription_id' | 'status' | 'next_retry_at';

export interface RecoveryRunRepository extends Collection<RecoveryRun, RecoveryRunColumn> {
  /** Accounts with a scheduled run due at or before `until` in `environment` (the scheduler). */
  findDueAccounts(environment: Environment, until: string): Promise<readonly string[]>;
  /** The scope's scheduled runs due at or before `until`, earliest step first. */
  findDue(scope: Scope, until: string, limit: number): Promise<readonly RecoveryRun[]>;
}

/** The repositories transactions own. */
export interface TransactionRepositories {
  readonly transactions: TransactionRepository;
  readonly adjustments: AdjustmentRepository;
  readonly billingSettings: BillingSettingsRepository;
  /** One revision per transaction, keyed by the transaction id (ADR 1102). */
  readonly transactionRevisions: Collection<TransactionRevision, 'id'>;
  readonly creditBalances: CreditBalanceRepository;
  /** Payment recovery of declined subscription charges, one run per transaction (ADR 1460). */
  readonly recoveryRuns: RecoveryRunRepository;
  /** Saved payment methods, which subscriptions charge. */
  readonly paymentMethods: Collection<PaymentMethod, PaymentMethodColumn>;
  /** The default payment link and dunning choice of each account environment. */
  readonly checkoutSettings: Collection<CheckoutSettings, 'id'>;
}

/** What transactions use: their repositories, the catalogue, discounts, metrics, VAT verdicts and the event log. */
export interface TransactionSlice extends TransactionRepositories, DiscountSlice, MetricSlice, TaxSlice {}
