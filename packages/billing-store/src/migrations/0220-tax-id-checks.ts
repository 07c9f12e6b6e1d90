import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/** VIES verdicts on VAT ids, one per id and account environment, reused for a configured time (ADR 1437). */
export const taxIdChecks: Migration = {
  id: '0220-tax-id-checks',
  statements: () => [documentTable('tax_id_checks', [])],
};
