import type { Migration } from './migration.js';

/**
 * Subscriptions filter by `price_id` and `next_billed_at`, as the public API's list does: two
 * promoted columns, `price_ids` (every item's price id, each between spaces, so a match is a
 * whole id) and `next_billed_at`. Existing rows are filled from their stored documents, in each
 * engine's JSON dialect.
 */
export const subscriptionFilterColumns: Migration = {
  id: '0180-subscription-filter-columns',
  statements: (dialect) => {
    const priceIds =
      dialect === 'postgres'
        ? `' ' || coalesce((select string_agg(item->'price'->>'id', ' ') from json_array_elements(body::json->'items') as item), '') || ' '`
        : `' ' || coalesce((select group_concat(json_extract(item.value, '$.price.id'), ' ') from json_each(body, '$.items') as item), '') || ' '`;
    const nextBilledAt =
      dialect === 'postgres' ? `body::json->>'nextBilledAt'` : `json_extract(body, '$.nextBilledAt')`;
    return [
      'alter table subscriptions add column price_ids text',
      'alter table subscriptions add column next_billed_at text',
      `update subscriptions set price_ids = ${priceIds}, next_billed_at = ${nextBilledAt}`,
      'create index subscriptions_by_next_billed_at on subscriptions (account_id, environment, next_billed_at, id)',
    ];
  },
};
