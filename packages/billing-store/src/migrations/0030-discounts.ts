import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/** Discounts and discount groups (ADR 1100). */
export const discounts: Migration = {
  id: '0030-discounts',
  statements: () => [
    documentTable('discount_groups', ['status']),
    'create index discount_groups_by_status on discount_groups (account_id, environment, status, id)',
    documentTable('discounts', ['status', 'code', 'mode', 'discount_group_id', 'expires_key']),
    // Codes are unique per account environment, compared case-insensitively (stored lower-cased).
    'create unique index discounts_by_code on discounts (account_id, environment, code)',
    'create index discounts_by_status on discounts (account_id, environment, status, id)',
    'create index discounts_by_group on discounts (account_id, environment, discount_group_id, id)',
  ],
};
