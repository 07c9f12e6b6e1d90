import type {
  NotificationOutcome,
  ProviderCustomerRepository,
  ProviderNotificationLog,
  ProviderSettings,
  ProviderSettingsRepository,
  Scope,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';

/** An account environment's payment provider and its credentials, as one JSON document (ADR 1420). */
export class SqlProviderSettingsRepository implements ProviderSettingsRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async find(scope: Scope): Promise<ProviderSettings | undefined> {
    const row = await this.sql.get<{ settings: string }>(
      'select settings from payment_provider_settings where account_id = ? and environment = ?',
      [scope.accountId, scope.environment],
    );
    return row ? (JSON.parse(row.settings) as ProviderSettings) : undefined;
  }

  async save(scope: Scope, settings: ProviderSettings): Promise<void> {
    await this.sql.run(
      `insert into payment_provider_settings (account_id, environment, provider, settings, updated_at)
       values (?, ?, ?, ?, ?)
       on conflict (account_id, environment) do update
         set provider = excluded.provider, settings = excluded.settings, updated_at = excluded.updated_at`,
      [scope.accountId, scope.environment, settings.provider, JSON.stringify(settings), settings.updatedAt],
    );
  }

  async remove(scope: Scope): Promise<boolean> {
    const changed = await this.sql.run(
      'delete from payment_provider_settings where account_id = ? and environment = ?',
      [scope.accountId, scope.environment],
    );
    return changed > 0;
  }
}

export class SqlProviderCustomerRepository implements ProviderCustomerRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async find(scope: Scope, provider: string, customerId: string): Promise<string | undefined> {
    const row = await this.sql.get<{ provider_customer_id: string }>(
      `select provider_customer_id from provider_customers
       where account_id = ? and environment = ? and provider = ? and customer_id = ?`,
      [scope.accountId, scope.environment, provider, customerId],
    );
    return row?.provider_customer_id;
  }

  async claim(
    scope: Scope,
    provider: string,
    customerId: string,
    providerCustomerId: string,
    at: string,
  ): Promise<string> {
    await this.sql.run(
      `insert into provider_customers (account_id, environment, provider, customer_id, provider_customer_id, created_at)
       values (?, ?, ?, ?, ?, ?)
       on conflict (account_id, environment, provider, customer_id) do nothing`,
      [scope.accountId, scope.environment, provider, customerId, providerCustomerId, at],
    );
    return (await this.find(scope, provider, customerId)) ?? providerCustomerId;
  }
}

export class SqlProviderNotificationLog implements ProviderNotificationLog {
  constructor(private readonly sql: SqlExecutor) {}

  async seen(scope: Scope, provider: string, notificationRef: string): Promise<boolean> {
    const row = await this.sql.get<{ kind: string }>(
      `select kind from provider_notifications
       where account_id = ? and environment = ? and provider = ? and notification_ref = ?`,
      [scope.accountId, scope.environment, provider, notificationRef],
    );
    return row !== undefined;
  }

  async record(
    scope: Scope,
    provider: string,
    notification: { readonly ref: string; readonly kind: string; readonly outcome: NotificationOutcome },
    at: string,
  ): Promise<boolean> {
    const changed = await this.sql.run(
      `insert into provider_notifications
         (account_id, environment, provider, notification_ref, kind, outcome, received_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (account_id, environment, provider, notification_ref) do nothing`,
      [scope.accountId, scope.environment, provider, notification.ref, notification.kind, notification.outcome, at],
    );
    return changed > 0;
  }

  async settle(scope: Scope, provider: string, notificationRef: string, outcome: NotificationOutcome): Promise<void> {
    await this.sql.run(
      `update provider_notifications set outcome = ?
       where account_id = ? and environment = ? and provider = ? and notification_ref = ?`,
      [outcome, scope.accountId, scope.environment, provider, notificationRef],
    );
  }
}
