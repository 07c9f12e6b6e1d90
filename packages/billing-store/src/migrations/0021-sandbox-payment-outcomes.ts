import type { Migration } from './migration.js';

/** The outcome of each sandbox account's simulated card (ADR 1003); no row means success. */
export const sandboxPaymentOutcomes: Migration = {
  id: '0021-sandbox-payment-outcomes',
  statements: () => [
    `create table sandbox_payment_outcomes (
  account_id text primary key,
  outcome text not null
)`,
  ],
};
