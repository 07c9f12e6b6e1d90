import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/**
 * Saved payment methods, payment attempts, the sandbox provider's records and checkout
 * settings (issue 14; ADRs 1410-1412). At most one attempt of a transaction is in flight: the
 * partial unique index refuses a second, so two submissions never pay twice.
 */
export const payments: Migration = {
  id: '0100-payments',
  statements: () => [
    documentTable('payment_methods', ['customer_id', 'address_id', 'status']),
    'create index payment_methods_by_customer on payment_methods (account_id, environment, customer_id, status, id)',
    `create table payment_attempts (
  account_id text not null,
  environment text not null,
  id text not null,
  transaction_id text not null,
  status text not null,
  submission_key text,
  provider text not null,
  provider_ref text,
  body text not null,
  primary key (account_id, environment, id)
)`,
    'create index payment_attempts_by_transaction on payment_attempts (account_id, environment, transaction_id, id)',
    `create unique index payment_attempts_one_in_flight on payment_attempts (account_id, environment, transaction_id)
  where status in ('processing', 'requires_action')`,
    'create unique index payment_attempts_by_submission on payment_attempts (account_id, environment, submission_key)',
    'create index payment_attempts_by_provider_ref on payment_attempts (provider, provider_ref)',
    documentTable('sandbox_payments', ['attempt_id']),
    'create index sandbox_payments_by_attempt on sandbox_payments (account_id, environment, attempt_id)',
    documentTable('checkout_settings', []),
    'create index transactions_by_id on transactions (environment, id)',
  ],
};
