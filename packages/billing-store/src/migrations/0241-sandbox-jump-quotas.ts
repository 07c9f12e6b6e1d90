import type { Migration } from './migration.js';
import { columnTypes } from './migration.js';

/**
 * Each account's count of sandbox jump steps in the current UTC day (ADR 1487): one row per
 * account, its day replaced by the first jump of a new day.
 */
export const sandboxJumpQuotas: Migration = {
  id: '0241-sandbox-jump-quotas',
  statements: (dialect) => [
    `create table sandbox_jump_quotas (
  account_id text primary key,
  day text not null,
  steps ${columnTypes(dialect).integer} not null
)`,
  ],
};
