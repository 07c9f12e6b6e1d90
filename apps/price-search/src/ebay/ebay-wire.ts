/**
 * @module
 * The parts of the Browse API `item_summary/search` response the connector reads. Items are validated one by
 * one, so a single odd item (an auction without a price, a new field shape) is dropped, not fatal.
 */
import { z } from 'zod';

/** One entry of `itemSummaries`. Prices are decimal strings: `{ value: "189.99", currency: "GBP" }`. */
export const EbayItemSummary = z.looseObject({
  itemId: z.string().optional(),
  title: z.string().min(1),
  price: z.looseObject({ value: z.string(), currency: z.string() }),
  condition: z.string().optional(),
  conditionId: z.string().optional(),
  buyingOptions: z.array(z.string()).optional(),
  itemWebUrl: z.string().min(1),
  itemAffiliateWebUrl: z.string().optional(),
  image: z.looseObject({ imageUrl: z.string() }).optional(),
  seller: z.looseObject({ username: z.string().optional() }).optional(),
  shippingOptions: z
    .array(
      z.looseObject({
        shippingCostType: z.string().optional(),
        shippingCost: z.looseObject({ value: z.string(), currency: z.string() }).optional(),
      }),
    )
    .optional(),
});

export type EbayItemSummary = z.infer<typeof EbayItemSummary>;

/** The search response envelope. An invalid filter comes back as HTTP 200 with `warnings` and unfiltered rows. */
export const EbaySearchResponse = z.looseObject({
  total: z.number().optional(),
  itemSummaries: z.array(z.unknown()).optional(),
  warnings: z.array(z.looseObject({ errorId: z.number().optional(), message: z.string().optional() })).optional(),
});
