/**
 * @module
 * eBay condition ids mapped onto the three conditions of the catalogue. "For parts or not working" (7000) is
 * not a product a shopper asked for, so it maps to nothing and such listings are dropped.
 */
import type { Condition } from '../listing/listing.js';

const idsByCondition = {
  new: ['1000', '1500', '1750'],
  refurbished: ['2000', '2010', '2020', '2030', '2500'],
  used: ['2750', '3000', '4000', '5000', '6000'],
} as const satisfies Record<Condition, readonly string[]>;

/** The eBay condition ids that mean `condition`, for the `conditionIds:{…}` filter. */
export function ebayConditionIds(condition: Condition): readonly string[] {
  return idsByCondition[condition];
}

/** Maps an item's `conditionId` (preferred) or `condition` text; undefined means the listing is dropped. */
export function conditionFromEbay(
  conditionId: string | undefined,
  conditionText: string | undefined,
): Condition | undefined {
  if (conditionId !== undefined) {
    for (const [condition, ids] of Object.entries(idsByCondition) as Array<[Condition, readonly string[]]>) {
      if (ids.includes(conditionId)) return condition;
    }
    return undefined;
  }
  const text = (conditionText ?? '').toLowerCase();
  if (text.includes('parts')) return undefined;
  if (text.includes('refurbished')) return 'refurbished';
  if (text.startsWith('new')) return 'new';
  if (text.includes('used') || text.includes('like new') || text.includes('good') || text.includes('acceptable')) {
    return 'used';
  }
  return undefined;
}
