import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/** Revised details of billed and completed transactions, one per transaction (ADR 1102). */
export const transactionRevisions: Migration = {
  id: '0032-transaction-revisions',
  statements: () => [documentTable('transaction_revisions', [])],
};
