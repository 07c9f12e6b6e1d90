import { sqlIdempotencyKey } from '../repositories/usage-idempotency.js';
import type { Migration } from './migration.js';

/**
 * Issue 39, ADR 0738: a usage event's idempotency key leads with its `occurred_at` (eight bytes
 * of its digits) before the 16-byte hash of migration 0200, so events of about one time insert
 * next to each other in the unique index instead of on a random page each. Every stored key is
 * rewritten from the stored hash and `occurred_at`, in SQL on both engines; the index is dropped
 * first and built again after (one sort instead of a random insert per row).
 */
export const usageKeysLedByTime: Migration = {
  id: '0252-usage-keys-led-by-time',
  statements: (dialect) => [
    'drop index usage_events_by_idempotency_hash',
    `update usage_events set idempotency_hash = ${sqlIdempotencyKey(dialect, 'idempotency_hash')}`,
    'create unique index usage_events_by_idempotency_hash on usage_events (idempotency_hash)',
  ],
};
