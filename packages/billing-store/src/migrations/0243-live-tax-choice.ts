import { DEFAULT_TAX_SETTINGS, type TaxSettings } from '@drawdown/billing-core';
import type { Migration } from './migration.js';

/**
 * ADR 1439: a live charge waits until the live tax settings are chosen, and settings never saved
 * now mean tax by location. A live account environment that has transactions already was
 * charging with the old defaults (no tax): that is recorded as its explicit choice, so its
 * renewals and charges go on exactly as before.
 */
export const liveTaxChoice: Migration = {
  id: '0243-live-tax-choice',
  statements: () => [
    async (tx) => {
      const accounts = await tx.all<{ account_id: string }>(
        `select distinct account_id from transactions where environment = 'live'
          and not exists (select 1 from tax_settings where tax_settings.account_id = transactions.account_id
            and tax_settings.environment = 'live')`,
      );
      const recorded: TaxSettings = { ...DEFAULT_TAX_SETTINGS, updatedAt: new Date().toISOString() };
      for (const row of accounts) {
        await tx.run("insert into tax_settings (account_id, environment, body) values (?, 'live', ?)", [
          row.account_id,
          JSON.stringify(recorded),
        ]);
      }
    },
  ],
};
