/**
 * @module
 * Per-environment tax settings and service-wide secrets (the invoice link signing key).
 */
import type { BillingSettingsRepository, Scope, TaxSettings } from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';

export class SqlBillingSettingsRepository implements BillingSettingsRepository {
  constructor(private readonly executor: SqlExecutor) {}

  async findTaxSettings(scope: Scope): Promise<TaxSettings | undefined> {
    const row = await this.executor.get<{ body: string }>(
      'select body from tax_settings where account_id = ? and environment = ?',
      [scope.accountId, scope.environment],
    );
    return row ? (JSON.parse(row.body) as TaxSettings) : undefined;
  }

  async saveTaxSettings(scope: Scope, settings: TaxSettings): Promise<void> {
    await this.executor.run(
      `insert into tax_settings (account_id, environment, body) values (?, ?, ?)
       on conflict (account_id, environment) do update set body = excluded.body`,
      [scope.accountId, scope.environment, JSON.stringify(settings)],
    );
  }

  async obtainServiceSecret(name: string, candidate: string): Promise<string> {
    // The first process to store a secret wins; every other one reads it back.
    await this.executor.run(
      'insert into service_secrets (name, value, created_at) values (?, ?, ?) on conflict (name) do nothing',
      [name, candidate, new Date().toISOString()],
    );
    const row = await this.executor.get<{ value: string }>('select value from service_secrets where name = ?', [name]);
    if (!row) throw new Error(`Service secret ${name} could not be stored`);
    return row.value;
  }
}
