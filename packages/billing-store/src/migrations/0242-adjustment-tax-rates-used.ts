import { type Adjustment, adjustmentTaxRatesUsed, type Transaction } from '@drawdown/billing-core';
import type { Migration } from './migration.js';

/**
 * Adjustments made before they carried `tax_rates_used` (issue 36) get it from their items and
 * the tax rates of the lines those items adjust, as new adjustments do when they are made.
 */
export const adjustmentTaxRatesUsedBackfill: Migration = {
  id: '0242-adjustment-tax-rates-used',
  statements: () => [
    async (tx) => {
      const rows = await tx.all<{ account_id: string; environment: string; id: string; body: string }>(
        'select account_id, environment, id, body from adjustments',
      );
      for (const row of rows) {
        const adjustment = JSON.parse(row.body) as Adjustment;
        if (adjustment.taxRatesUsed !== undefined) continue;
        const transaction = await tx.get<{ body: string }>(
          'select body from transactions where account_id = ? and environment = ? and id = ?',
          [row.account_id, row.environment, adjustment.transactionId],
        );
        const lineItems = transaction ? (JSON.parse(transaction.body) as Transaction).details.lineItems : [];
        const taxRatesUsed = adjustmentTaxRatesUsed(adjustment.items, lineItems);
        await tx.run('update adjustments set body = ? where account_id = ? and environment = ? and id = ?', [
          JSON.stringify({ ...adjustment, taxRatesUsed }),
          row.account_id,
          row.environment,
          row.id,
        ]);
      }
    },
  ],
};
