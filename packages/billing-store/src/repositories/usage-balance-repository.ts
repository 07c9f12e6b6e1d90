/**
 * @module
 * Usage balances: the folded state as a document, and beside it the append-only ledger of
 * entries that produced it, so any balance can be recomputed and checked.
 */
import type {
  LedgerEntry,
  ListQuery,
  Page,
  Scope,
  UsageBalance,
  UsageBalanceColumn,
  UsageBalanceRepository,
} from '@drawdown/billing-core';
import { forUpdate, type SqlExecutor } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec } from './document-collection.js';

const usageBalancesTable: DocumentTableSpec<UsageBalance, UsageBalanceColumn> = {
  table: 'usage_balances',
  columns: {
    customer_id: (balance) => balance.customerId,
    usage_balance_unit_id: (balance) => balance.usageBalanceUnitId,
  },
};

export class SqlUsageBalanceRepository implements UsageBalanceRepository {
  private readonly documents: DocumentCollection<UsageBalance, UsageBalanceColumn>;

  constructor(private readonly sql: SqlExecutor) {
    this.documents = new DocumentCollection(sql, usageBalancesTable);
  }

  findById(scope: Scope, id: string): Promise<UsageBalance | undefined> {
    return this.documents.findById(scope, id);
  }

  list(scope: Scope, query: ListQuery<UsageBalanceColumn>): Promise<Page<UsageBalance>> {
    return this.documents.list(scope, query);
  }

  async lock(
    scope: Scope,
    customerId: string,
    unitId: string,
    create?: UsageBalance,
  ): Promise<UsageBalance | undefined> {
    if (create) {
      await this.sql.run(
        `insert into usage_balances (account_id, environment, id, customer_id, usage_balance_unit_id, body)
         values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
        [scope.accountId, scope.environment, create.id, customerId, unitId, JSON.stringify(create)],
      );
    }
    const row = await this.sql.get<{ body: string }>(
      `select body from usage_balances
       where account_id = ? and environment = ? and customer_id = ? and usage_balance_unit_id = ?${forUpdate(this.sql.dialect)}`,
      [scope.accountId, scope.environment, customerId, unitId],
    );
    return row ? (JSON.parse(row.body) as UsageBalance) : undefined;
  }

  async save(scope: Scope, balance: UsageBalance, entries: readonly LedgerEntry[]): Promise<void> {
    await this.documents.update(scope, balance);
    if (this.sql.dialect === 'postgres' && entries.length > 1) {
      // A drawdown batch brings one entry per event; on PostgreSQL each statement is a round
      // trip, so they go in with one statement, in order (ADR 0701).
      await this.sql.run(
        `insert into usage_ledger (account_id, environment, balance_id, entry)
         select ?, ?, ?, entry from json_array_elements_text(?::json) with ordinality as e(entry, n) order by n`,
        [scope.accountId, scope.environment, balance.id, JSON.stringify(entries.map((entry) => JSON.stringify(entry)))],
      );
      return;
    }
    for (const entry of entries) {
      await this.sql.run('insert into usage_ledger (account_id, environment, balance_id, entry) values (?, ?, ?, ?)', [
        scope.accountId,
        scope.environment,
        balance.id,
        JSON.stringify(entry),
      ]);
    }
  }

  async ledger(scope: Scope, balanceId: string): Promise<readonly LedgerEntry[]> {
    const rows = await this.sql.all<{ entry: string }>(
      'select entry from usage_ledger where account_id = ? and environment = ? and balance_id = ? order by sequence',
      [scope.accountId, scope.environment, balanceId],
    );
    return rows.map((row) => JSON.parse(row.entry) as LedgerEntry);
  }
}
