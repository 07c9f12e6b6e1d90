/**
 * @module
 * Usage balances: the folded state as a document, and beside it the append-only ledger of
 * entries that produced it, so any balance can be recomputed and checked.
 */
import type {
  BalanceChange,
  BalanceKey,
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
    if (entries.length > 1) {
      // A drawdown batch brings one entry per event: they go in with one statement, in order
      // (on PostgreSQL each statement is a round trip, ADR 0701; on SQLite each is a call and a
      // promise, ADR 0734).
      await this.sql.run(
        this.sql.dialect === 'postgres'
          ? `insert into usage_ledger (account_id, environment, balance_id, entry)
             select ?, ?, ?, entry from json_array_elements_text(?::json) with ordinality as e(entry, n) order by n`
          : `insert into usage_ledger (account_id, environment, balance_id, entry)
             select ?, ?, ?, value from json_each(?) order by key`,
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

  /**
   * On PostgreSQL one statement locks them all, in the order given (rows are locked as the
   * sorted join yields them); SQLite's transaction already holds the only write lock, and its
   * statements cost no round trip, so it locks one by one.
   */
  async lockMany(keys: readonly BalanceKey[]): Promise<readonly (UsageBalance | undefined)[]> {
    if (this.sql.dialect !== 'postgres' || keys.length < 2) {
      const balances: (UsageBalance | undefined)[] = [];
      for (const key of keys) balances.push(await this.lock(key.scope, key.customerId, key.unitId));
      return balances;
    }
    const rows = await this.sql.all<{ n: number | string; body: string }>(
      `select k.n, b.body
       from rows from (json_to_recordset(?::json) as (account_id text, environment text, customer_id text, unit_id text))
         with ordinality as k(account_id, environment, customer_id, unit_id, n)
       join usage_balances b on b.account_id = k.account_id and b.environment = k.environment
         and b.customer_id = k.customer_id and b.usage_balance_unit_id = k.unit_id
       order by k.n
       for update of b`,
      [
        JSON.stringify(
          keys.map((key) => ({
            account_id: key.scope.accountId,
            environment: key.scope.environment,
            customer_id: key.customerId,
            unit_id: key.unitId,
          })),
        ),
      ],
    );
    const byPosition = new Map(rows.map((row) => [Number(row.n), JSON.parse(row.body) as UsageBalance]));
    return keys.map((_, index) => byPosition.get(index + 1));
  }

  /**
   * On PostgreSQL one statement whatever the count: the documents from one JSON array and every
   * ledger entry in order from another (ADRs 0712, 0718).
   */
  async saveMany(changes: readonly BalanceChange[]): Promise<void> {
    if (this.sql.dialect !== 'postgres' || changes.length < 2) {
      for (const change of changes) await this.save(change.scope, change.balance, change.entries);
      return;
    }
    // A balance's customer and unit never change: only its document is rewritten. The documents
    // and the ledger entries go in one statement, one round trip (ADR 0718).
    const documents = JSON.stringify(
      changes.map((change) => ({
        account_id: change.scope.accountId,
        environment: change.scope.environment,
        id: change.balance.id,
        body: JSON.stringify(change.balance),
      })),
    );
    const entries = JSON.stringify(
      changes.flatMap((change) =>
        change.entries.map((entry) => ({
          account_id: change.scope.accountId,
          environment: change.scope.environment,
          balance_id: change.balance.id,
          entry: JSON.stringify(entry),
        })),
      ),
    );
    await this.sql.run(
      `with saved as (
         update usage_balances as b set body = r.body
         from json_to_recordset(?::json) as r(account_id text, environment text, id text, body text)
         where b.account_id = r.account_id and b.environment = r.environment and b.id = r.id
       )
       insert into usage_ledger (account_id, environment, balance_id, entry)
       select account_id, environment, balance_id, entry
       from rows from (json_to_recordset(?::json) as (account_id text, environment text, balance_id text, entry text))
         with ordinality as r(account_id, environment, balance_id, entry, n)
       order by n`,
      [documents, entries],
    );
  }

  async ledger(scope: Scope, balanceId: string): Promise<readonly LedgerEntry[]> {
    const rows = await this.sql.all<{ entry: string }>(
      'select entry from usage_ledger where account_id = ? and environment = ? and balance_id = ? order by sequence',
      [scope.accountId, scope.environment, balanceId],
    );
    return rows.map((row) => JSON.parse(row.entry) as LedgerEntry);
  }
}
