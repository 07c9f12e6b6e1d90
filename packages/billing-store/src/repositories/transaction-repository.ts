/**
 * @module
 * Transactions as documents with promoted filter columns, an invoice number sequence per
 * account, environment and year, and the overdue-invoice queries of the past-due worker.
 */
import {
  type Environment,
  ESTIMATED_TOTAL_CAP,
  type ListQuery,
  type Page,
  pastDueAfter,
  type Scope,
  type Transaction,
  type TransactionColumn,
  type TransactionListQuery,
  type TransactionRepository,
} from '@drawdown/billing-core';
import type { SqlExecutor, SqlValue } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec, filterClauses } from './document-collection.js';

type StoredColumn = TransactionColumn | 'billed_key' | 'past_due_after';

export const transactionsTable: DocumentTableSpec<Transaction, StoredColumn> = {
  table: 'transactions',
  columns: {
    customer_id: (transaction) => transaction.customerId,
    status: (transaction) => transaction.status,
    subscription_id: (transaction) => transaction.subscriptionId,
    collection_mode: (transaction) => transaction.collectionMode,
    invoice_number: (transaction) => transaction.invoiceNumber,
    origin: (transaction) => transaction.origin,
    billed_at: (transaction) => transaction.billedAt,
    created_at: (transaction) => transaction.createdAt,
    updated_at: (transaction) => transaction.updatedAt,
    billed_key: (transaction) => transaction.billedAt ?? '',
    past_due_after: (transaction) => pastDueAfter(transaction),
  },
};

const decode = (body: string) => JSON.parse(body) as Transaction;

export class SqlTransactionRepository implements TransactionRepository {
  private readonly documents: DocumentCollection<Transaction, StoredColumn>;

  constructor(private readonly executor: SqlExecutor) {
    this.documents = new DocumentCollection(executor, transactionsTable);
  }

  insert(scope: Scope, transaction: Transaction): Promise<void> {
    return this.documents.insert(scope, transaction);
  }

  update(scope: Scope, transaction: Transaction): Promise<void> {
    return this.documents.update(scope, transaction);
  }

  findById(scope: Scope, id: string): Promise<Transaction | undefined> {
    return this.documents.findById(scope, id);
  }

  findByIdForUpdate(scope: Scope, id: string): Promise<Transaction | undefined> {
    return this.documents.findByIdForUpdate(scope, id);
  }

  async hasPaymentInFlight(scope: Scope, transactionId: string): Promise<boolean> {
    // The statuses of the attempts' partial unique index (migration 0100): at most one such row.
    const row = await this.executor.get<{ id: string }>(
      `select id from payment_attempts
        where account_id = ? and environment = ? and transaction_id = ? and status in ('processing', 'requires_action')`,
      [scope.accountId, scope.environment, transactionId],
    );
    return row !== undefined;
  }

  async list(scope: Scope, query: ListQuery<TransactionColumn> | TransactionListQuery): Promise<Page<Transaction>> {
    const orderBy = 'orderBy' in query ? query.orderBy : 'id';
    const { sql, params } = filterClauses(query.filter);
    const where = ['account_id = ?', 'environment = ?', ...sql];
    const scopeParams: SqlValue[] = [scope.accountId, scope.environment, ...params];
    const pageWhere = [...where];
    const pageParams = [...scopeParams];
    const operator = query.direction === 'desc' ? '<' : '>';
    if (query.after !== undefined && orderBy === 'id') {
      pageWhere.push(`id ${operator} ?`);
      pageParams.push(query.after);
    }
    // Keyed orders: (key, id), the key being a column the module names, never input.
    const key = orderBy === 'billed_at' ? 'billed_key' : orderBy === 'updated_at' ? 'updated_at' : null;
    if (query.after !== undefined && key !== null) {
      // The cursor's own key is read in the same statement.
      pageWhere.push(
        `(${key}, id) ${operator} ((select anchor.${key} from transactions anchor where anchor.account_id = ? and anchor.environment = ? and anchor.id = ?), ?)`,
      );
      pageParams.push(scope.accountId, scope.environment, query.after, query.after);
    }
    const order =
      key !== null
        ? `${key} ${query.direction}, id ${query.direction}`
        : `${this.idSortKey(query.filter)} ${query.direction}`;
    const rows = await this.executor.all<{ body: string }>(
      `select body from transactions where ${pageWhere.join(' and ')} order by ${order} limit ?`,
      [...pageParams, query.perPage + 1],
    );
    // Counting stops past the cap, so a huge result costs a bounded index scan, not a full count.
    const counted =
      query.countTotal === false
        ? undefined
        : await this.executor.get<{ total: number | string }>(
            `select count(*) as total from (select 1 from transactions where ${where.join(' and ')} limit ?) capped`,
            [...scopeParams, ESTIMATED_TOTAL_CAP + 1],
          );
    return {
      items: rows.slice(0, query.perPage).map((row) => decode(row.body)),
      hasMore: rows.length > query.perPage,
      estimatedTotal: Number(counted?.total ?? 0),
    };
  }

  /**
   * SQLite without table statistics prefers walking the primary key in id order, filtering
   * every row of the account, over a selective index plus a small sort. With a customer,
   * subscription or id filter, `+id` (SQLite's documented way to disqualify an index from the
   * ordering) makes it take the filter's index and sort the few matching rows. PostgreSQL
   * plans from its statistics and needs no hint.
   */
  private idSortKey(filter: ListQuery<TransactionColumn>['filter']): string {
    if (this.executor.dialect !== 'sqlite') return 'id';
    const selective = filter.customer_id ?? filter.subscription_id ?? filter.invoice_number;
    return selective ? '+id' : 'id';
  }

  async nextInvoiceNumber(scope: Scope, year: number): Promise<number> {
    const row = await this.executor.get<{ last_number: number | string }>(
      `insert into invoice_sequences (account_id, environment, year, last_number) values (?, ?, ?, 1)
       on conflict (account_id, environment, year) do update set last_number = invoice_sequences.last_number + 1
       returning last_number`,
      [scope.accountId, scope.environment, year],
    );
    if (!row) throw new Error('The invoice number sequence returned no row');
    return Number(row.last_number);
  }

  async findOverdue(scope: Scope, now: string, limit: number): Promise<readonly string[]> {
    const rows = await this.executor.all<{ id: string }>(
      `select id from transactions
       where environment = ? and past_due_after is not null and past_due_after <= ? and account_id = ?
       order by past_due_after limit ?`,
      [scope.environment, now, scope.accountId, limit],
    );
    return rows.map((row) => row.id);
  }

  async findOverdueAccounts(environment: Environment, until: string): Promise<readonly string[]> {
    const rows = await this.executor.all<{ account_id: string }>(
      `select distinct account_id from transactions
       where environment = ? and past_due_after is not null and past_due_after <= ?`,
      [environment, until],
    );
    return rows.map((row) => row.account_id);
  }
}
