/**
 * @module
 * Applies the migrations not yet applied, in order, in one transaction. Several processes may
 * start at once: PostgreSQL serialises them on an advisory lock, SQLite on its write lock.
 */

import type { SqlDatabase } from '../sql/sql-database.js';
import { foundation } from './0001-foundation.js';
import { usage } from './0002-usage.js';
import { transactions } from './0003-transactions.js';
import { notifications } from './0005-notifications.js';
import { creditBalances } from './0020-credit-balances.js';
import { sandboxPaymentOutcomes } from './0021-sandbox-payment-outcomes.js';
import { discounts } from './0030-discounts.js';
import { businesses } from './0031-businesses.js';
import { transactionRevisions } from './0032-transaction-revisions.js';
import { searchColumns } from './0033-search-columns.js';
import { apiKeyExpiryNotices } from './0050-api-key-expiry-notices.js';
import { simulations } from './0051-simulations.js';
import { metricRollups } from './0052-metric-rollups.js';
import { reports } from './0053-reports.js';
import { demoAccount } from './0080-demo-account.js';
import { payments } from './0100-payments.js';
import { paymentProviderSettings } from './0110-payment-provider-settings.js';
import { clientAndCustomerTokens } from './0120-client-and-customer-tokens.js';
import { sellerDetails } from './0140-seller-details.js';
import { subscriptionFilterColumns } from './0180-subscription-filter-columns.js';
import { compactUsageIdempotency } from './0200-compact-usage-idempotency.js';
import { paymentRecovery } from './0210-payment-recovery.js';
import { taxIdChecks } from './0220-tax-id-checks.js';
import { providerRefunds } from './0230-provider-refunds.js';
import { simulationSpending } from './0240-simulation-spending.js';
import { sandboxJumpQuotas } from './0241-sandbox-jump-quotas.js';
import { adjustmentTaxRatesUsedBackfill } from './0242-adjustment-tax-rates-used.js';
import { liveTaxChoice } from './0243-live-tax-choice.js';
import { transactionsByUpdated } from './0244-transactions-by-updated.js';
import { emailReminders } from './0245-email-reminders.js';
import { importMeta } from './0247-import-meta.js';
import { notificationsByEvent } from './0248-notifications-by-event.js';
import { customerEmail } from './0250-customer-email.js';
import { emailKindsTurnedOff } from './0251-email-kinds-turned-off.js';
import { usageKeysLedByTime } from './0252-usage-keys-led-by-time.js';
import { sqliteUsageRowidSequences } from './0253-sqlite-usage-rowid-sequences.js';
import type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  foundation,
  usage,
  transactions,
  notifications,
  demoAccount,
  apiKeyExpiryNotices,
  simulations,
  metricRollups,
  reports,
  creditBalances,
  sandboxPaymentOutcomes,
  discounts,
  businesses,
  transactionRevisions,
  searchColumns,
  payments,
  clientAndCustomerTokens,
  paymentProviderSettings,
  subscriptionFilterColumns,
  sellerDetails,
  taxIdChecks,
  paymentRecovery,
  compactUsageIdempotency,
  providerRefunds,
  simulationSpending,
  sandboxJumpQuotas,
  adjustmentTaxRatesUsedBackfill,
  liveTaxChoice,
  transactionsByUpdated,
  emailReminders,
  importMeta,
  notificationsByEvent,
  customerEmail,
  emailKindsTurnedOff,
  usageKeysLedByTime,
  sqliteUsageRowidSequences,
];

const MIGRATION_LOCK_KEY = 4_172_031_985;

export async function migrate(database: SqlDatabase, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  return database.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.run(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.run('create table if not exists schema_migrations (id text primary key, applied_at text not null)');
    const applied = new Set((await tx.all<{ id: string }>('select id from schema_migrations')).map((row) => row.id));
    const newlyApplied: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      for (const step of migration.statements(tx.dialect)) {
        if (typeof step === 'string') await tx.run(step);
        else await step(tx);
      }
      await tx.run('insert into schema_migrations (id, applied_at) values (?, ?)', [
        migration.id,
        new Date().toISOString(),
      ]);
      newlyApplied.push(migration.id);
    }
    return newlyApplied;
  });
}
