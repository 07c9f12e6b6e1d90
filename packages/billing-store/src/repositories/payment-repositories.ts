/**
 * @module
 * Payment storage (issue 14): saved methods and the sandbox provider's records are document
 * tables; attempts are documents with the columns their unique indexes need (one in flight per
 * transaction, one per form submission) and a cross-account lookup by provider reference.
 */
import type {
  CheckoutSettings,
  Environment,
  ListQuery,
  Page,
  PaymentAttempt,
  PaymentAttemptColumn,
  PaymentAttemptRepository,
  PaymentMethod,
  PaymentMethodColumn,
  ProviderRefundColumn,
  ProviderRefundRecord,
  ProviderRefundRepository,
  RecoveryRun,
  RecoveryRunColumn,
  RecoveryRunRepository,
  SandboxPayment,
  SandboxPaymentColumn,
  Scope,
  SellerDetails,
  TaxIdCheck,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec } from './document-collection.js';

export const paymentMethodsTable: DocumentTableSpec<PaymentMethod, PaymentMethodColumn> = {
  table: 'payment_methods',
  columns: {
    customer_id: (method) => method.customerId,
    address_id: (method) => method.addressId,
    status: (method) => method.internal.status,
  },
};

export const sandboxPaymentsTable: DocumentTableSpec<SandboxPayment, SandboxPaymentColumn> = {
  table: 'sandbox_payments',
  columns: { attempt_id: (payment) => payment.attemptId },
};

export const checkoutSettingsTable: DocumentTableSpec<CheckoutSettings, 'id'> = {
  table: 'checkout_settings',
  columns: {},
};

/** VIES verdicts on VAT ids, keyed by the prefixed id (ADR 1437). */
export const taxIdChecksTable: DocumentTableSpec<TaxIdCheck, 'id'> = {
  table: 'tax_id_checks',
  columns: {},
};

/** One document per account environment, `seller` (ADR 1106). */
export const sellerDetailsTable: DocumentTableSpec<SellerDetails, 'id'> = {
  table: 'seller_details',
  columns: {},
};

type StoredAttemptColumn = PaymentAttemptColumn | 'provider' | 'provider_ref';

const paymentAttemptsTable: DocumentTableSpec<PaymentAttempt, StoredAttemptColumn> = {
  table: 'payment_attempts',
  columns: {
    transaction_id: (attempt) => attempt.transactionId,
    status: (attempt) => attempt.status,
    submission_key: (attempt) => attempt.submissionKey,
    provider: (attempt) => attempt.provider,
    provider_ref: (attempt) => attempt.providerPaymentRef,
  },
};

export class SqlPaymentAttemptRepository implements PaymentAttemptRepository {
  private readonly documents: DocumentCollection<PaymentAttempt, StoredAttemptColumn>;

  constructor(private readonly executor: SqlExecutor) {
    this.documents = new DocumentCollection(executor, paymentAttemptsTable);
  }

  insert(scope: Scope, attempt: PaymentAttempt): Promise<void> {
    return this.documents.insert(scope, attempt);
  }

  update(scope: Scope, attempt: PaymentAttempt): Promise<void> {
    return this.documents.update(scope, attempt);
  }

  findById(scope: Scope, id: string): Promise<PaymentAttempt | undefined> {
    return this.documents.findById(scope, id);
  }

  findByIdForUpdate(scope: Scope, id: string): Promise<PaymentAttempt | undefined> {
    return this.documents.findByIdForUpdate(scope, id);
  }

  list(scope: Scope, query: ListQuery<PaymentAttemptColumn>): Promise<Page<PaymentAttempt>> {
    return this.documents.list(scope, query);
  }

  async findByProviderRef(provider: string, providerPaymentRef: string) {
    const row = await this.executor.get<{ account_id: string; environment: string; body: string }>(
      'select account_id, environment, body from payment_attempts where provider = ? and provider_ref = ?',
      [provider, providerPaymentRef],
    );
    if (!row) return undefined;
    return {
      scope: { accountId: row.account_id, environment: row.environment as Environment },
      attempt: JSON.parse(row.body) as PaymentAttempt,
    };
  }

  async findTransactionAccount(environment: Environment, transactionId: string): Promise<string | undefined> {
    const row = await this.executor.get<{ account_id: string }>(
      'select account_id from transactions where environment = ? and id = ?',
      [environment, transactionId],
    );
    return row?.account_id;
  }

  async findInFlightAccounts(environment: Environment): Promise<string[]> {
    // The rows of the partial unique index of in-flight attempts, and captures waiting for their refund (ADR 1468).
    const rows = await this.executor.all<{ account_id: string }>(
      `select distinct account_id from payment_attempts
        where environment = ? and status in ('processing', 'requires_action', 'refunding') order by account_id`,
      [environment],
    );
    return rows.map((row) => row.account_id);
  }
}

const providerRefundsTable: DocumentTableSpec<ProviderRefundRecord, ProviderRefundColumn> = {
  table: 'provider_refunds',
  columns: {
    transaction_id: (refund) => refund.transactionId,
    status: (refund) => refund.status,
    provider_payment_ref: (refund) => refund.providerPaymentRef,
  },
};

/** Refunds of provider payments (ADR 1463): documents, with the recovery step's cross-account lookup. */
export class SqlProviderRefundRepository
  extends DocumentCollection<ProviderRefundRecord, ProviderRefundColumn>
  implements ProviderRefundRepository
{
  constructor(private readonly sql: SqlExecutor) {
    super(sql, providerRefundsTable);
  }

  async findProcessingAccounts(environment: Environment): Promise<string[]> {
    // The partial index of processing refunds holds exactly these rows.
    const rows = await this.sql.all<{ account_id: string }>(
      `select distinct account_id from provider_refunds where environment = ? and status = 'processing' order by account_id`,
      [environment],
    );
    return rows.map((row) => row.account_id);
  }
}

const recoveryRunsTable: DocumentTableSpec<RecoveryRun, RecoveryRunColumn> = {
  table: 'recovery_runs',
  columns: {
    subscription_id: (run) => run.subscriptionId,
    status: (run) => run.status,
    next_retry_at: (run) => run.nextRetryAt,
  },
};

/** Payment recovery runs (ADR 1460): documents, with the scheduler's lookups by due step. */
export class SqlRecoveryRunRepository implements RecoveryRunRepository {
  private readonly documents: DocumentCollection<RecoveryRun, RecoveryRunColumn>;

  constructor(private readonly executor: SqlExecutor) {
    this.documents = new DocumentCollection(executor, recoveryRunsTable);
  }

  insert(scope: Scope, run: RecoveryRun): Promise<void> {
    return this.documents.insert(scope, run);
  }

  update(scope: Scope, run: RecoveryRun): Promise<void> {
    return this.documents.update(scope, run);
  }

  findById(scope: Scope, id: string): Promise<RecoveryRun | undefined> {
    return this.documents.findById(scope, id);
  }

  findByIdForUpdate(scope: Scope, id: string): Promise<RecoveryRun | undefined> {
    return this.documents.findByIdForUpdate(scope, id);
  }

  list(scope: Scope, query: ListQuery<RecoveryRunColumn>): Promise<Page<RecoveryRun>> {
    return this.documents.list(scope, query);
  }

  async findDueAccounts(environment: Environment, until: string): Promise<readonly string[]> {
    const rows = await this.executor.all<{ account_id: string }>(
      `select distinct account_id from recovery_runs
       where environment = ? and status = 'scheduled' and next_retry_at <= ?`,
      [environment, until],
    );
    return rows.map((row) => row.account_id);
  }

  async findDue(scope: Scope, until: string, limit: number): Promise<readonly RecoveryRun[]> {
    const rows = await this.executor.all<{ body: string }>(
      `select body from recovery_runs
       where account_id = ? and environment = ? and status = 'scheduled' and next_retry_at <= ?
       order by next_retry_at, id limit ?`,
      [scope.accountId, scope.environment, until, limit],
    );
    return rows.map((row) => JSON.parse(row.body) as RecoveryRun);
  }
}
