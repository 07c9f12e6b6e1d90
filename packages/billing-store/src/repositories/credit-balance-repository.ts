/**
 * @module
 * Credit balances: the folded amounts of each customer and currency, beside the append-only
 * ledger that produced them (ADR 1002).
 */
import {
  type CreditBalance,
  type CreditBalanceRepository,
  type CreditLedgerEntry,
  EMPTY_CREDIT,
  type Scope,
} from '@drawdown/billing-core';
import { forUpdate, type SqlExecutor } from '../sql/sql-database.js';

export class SqlCreditBalanceRepository implements CreditBalanceRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async list(scope: Scope, customerId: string): Promise<readonly CreditBalance[]> {
    const rows = await this.sql.all<{ body: string }>(
      `select body from credit_balances where account_id = ? and environment = ? and customer_id = ?
       order by currency_code`,
      [scope.accountId, scope.environment, customerId],
    );
    return rows.map((row) => JSON.parse(row.body) as CreditBalance);
  }

  async lock(scope: Scope, customerId: string, currencyCode: string): Promise<CreditBalance> {
    const empty: CreditBalance = { customerId, currencyCode, balance: EMPTY_CREDIT };
    await this.sql.run(
      `insert into credit_balances (account_id, environment, customer_id, currency_code, body)
       values (?, ?, ?, ?, ?) on conflict do nothing`,
      [scope.accountId, scope.environment, customerId, currencyCode, JSON.stringify(empty)],
    );
    const row = await this.sql.get<{ body: string }>(
      `select body from credit_balances
       where account_id = ? and environment = ? and customer_id = ? and currency_code = ?${forUpdate(this.sql.dialect)}`,
      [scope.accountId, scope.environment, customerId, currencyCode],
    );
    if (!row) throw new Error(`Credit balance ${customerId}/${currencyCode} could not be created`);
    return JSON.parse(row.body) as CreditBalance;
  }

  async save(scope: Scope, balance: CreditBalance, entries: readonly CreditLedgerEntry[]): Promise<void> {
    await this.sql.run(
      `update credit_balances set body = ?
       where account_id = ? and environment = ? and customer_id = ? and currency_code = ?`,
      [JSON.stringify(balance), scope.accountId, scope.environment, balance.customerId, balance.currencyCode],
    );
    for (const entry of entries) {
      await this.sql.run(
        `insert into credit_ledger (account_id, environment, customer_id, currency_code, entry)
         values (?, ?, ?, ?, ?)`,
        [scope.accountId, scope.environment, balance.customerId, balance.currencyCode, JSON.stringify(entry)],
      );
    }
  }

  async ledger(scope: Scope, customerId: string, currencyCode: string): Promise<readonly CreditLedgerEntry[]> {
    const rows = await this.sql.all<{ entry: string }>(
      `select entry from credit_ledger
       where account_id = ? and environment = ? and customer_id = ? and currency_code = ? order by sequence`,
      [scope.accountId, scope.environment, customerId, currencyCode],
    );
    return rows.map((row) => JSON.parse(row.entry) as CreditLedgerEntry);
  }
}
