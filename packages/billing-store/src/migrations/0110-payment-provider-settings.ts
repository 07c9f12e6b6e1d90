import type { Migration } from './migration.js';

/**
 * Per-account payment provider settings (ADR 1420), the provider's customer for each Drawdown
 * customer it charged, and the provider notifications already handled (a replay changes nothing).
 */
export const paymentProviderSettings: Migration = {
  id: '0110-payment-provider-settings',
  statements: () => [
    `create table payment_provider_settings (
  account_id text not null,
  environment text not null,
  provider text not null,
  settings text not null,
  updated_at text not null,
  primary key (account_id, environment)
)`,
    `create table provider_customers (
  account_id text not null,
  environment text not null,
  provider text not null,
  customer_id text not null,
  provider_customer_id text not null,
  created_at text not null,
  primary key (account_id, environment, provider, customer_id)
)`,
    `create table provider_notifications (
  account_id text not null,
  environment text not null,
  provider text not null,
  notification_ref text not null,
  kind text not null,
  outcome text not null,
  received_at text not null,
  primary key (account_id, environment, provider, notification_ref)
)`,
  ],
};
