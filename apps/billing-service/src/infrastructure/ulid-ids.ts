import type { IdGenerator, IdPrefix } from '@drawdown/billing-core';
import { monotonicFactory } from 'ulid';

/**
 * Ids from monotonic ULIDs, lower-cased: ids made later sort after earlier ones, even within
 * one millisecond, so ordering by id is ordering by creation.
 */
export function createUlidIds(): IdGenerator {
  const next = monotonicFactory();
  return { newId: (prefix: IdPrefix) => `${prefix}_${next().toLowerCase()}` };
}
