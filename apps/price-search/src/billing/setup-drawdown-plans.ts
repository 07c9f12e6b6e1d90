/**
 * @module
 * Creates what Drawdown needs to bill price search, idempotently by name: the `lookups` usage balance unit, the
 * `lookup` meter (one lookup per event), the product and its two monthly GBP prices. Pro (£29) grants an
 * allowance of 5,000 lookups a period. Scale (£99) has NO allowance: its customers get no lookups balance, so
 * it never depletes and Scale is never refused; its lookups are still reported and recorded.
 */
import type { Drawdown, Meter, Price, Product, UsageBalanceUnit } from '@drawdown/sdk';
import { LOOKUP_ACTION } from '../metering/drawdown-lookup-meter.js';
import { MONTHLY_LOOKUPS } from '../metering/plans.js';

export const LOOKUPS_UNIT_NAME = 'lookups';
export const PRODUCT_NAME = 'Price Search';
export const PRO_PRICE_NAME = 'Pro';
export const SCALE_PRICE_NAME = 'Scale';

/** The catalogue entries of the plans. */
export interface DrawdownPlans {
  readonly lookupsUnitId: string;
  readonly meterId: string;
  readonly productId: string;
  readonly proPriceId: string;
  readonly scalePriceId: string;
}

type PlansClient = Pick<Drawdown, 'usageBalanceUnits' | 'meters' | 'products' | 'prices'>;

/** Finds or creates the unit, meter, product and prices; safe to run again (it creates only what is missing). */
export async function setupDrawdownPlans(client: PlansClient): Promise<DrawdownPlans> {
  const unit =
    (await find<UsageBalanceUnit>(
      client.usageBalanceUnits.list({ status: ['active'] }),
      (item) => item.name === LOOKUPS_UNIT_NAME,
    )) ?? (await client.usageBalanceUnits.create({ name: LOOKUPS_UNIT_NAME, unitName: 'lookups' }));
  const meter =
    (await find<Meter>(
      client.meters.list({ status: ['active'], action: [LOOKUP_ACTION], usageBalanceUnitId: [unit.id] }),
      () => true,
    )) ??
    (await client.meters.create({
      usageBalanceUnitId: unit.id,
      name: 'Price lookups',
      action: LOOKUP_ACTION,
      unitName: 'lookup',
      rate: '1',
    }));
  const product =
    (await find<Product>(client.products.list({ status: ['active'] }), (item) => item.name === PRODUCT_NAME)) ??
    (await client.products.create({
      name: PRODUCT_NAME,
      taxCategory: 'saas',
      description: 'UK product price search API',
    }));
  const prices = client.prices.list({ productId: [product.id], status: ['active'] });
  const existing: Price[] = [];
  for await (const price of prices) existing.push(price);
  const byName = (name: string) => existing.find((price) => price.name === name);

  const pro =
    byName(PRO_PRICE_NAME) ??
    (await client.prices.create({
      productId: product.id,
      name: PRO_PRICE_NAME,
      description: `Pro: ${MONTHLY_LOOKUPS.pro} lookups a month`,
      unitPrice: { amount: '2900', currencyCode: 'GBP' },
      billingCycle: { interval: 'month', frequency: 1 },
      allowances: [{ usageBalanceUnitId: unit.id, amount: String(MONTHLY_LOOKUPS.pro) }],
    }));
  const scale =
    byName(SCALE_PRICE_NAME) ??
    (await client.prices.create({
      productId: product.id,
      name: SCALE_PRICE_NAME,
      description: 'Scale: unlimited lookups',
      unitPrice: { amount: '9900', currencyCode: 'GBP' },
      billingCycle: { interval: 'month', frequency: 1 },
      // Deliberately no allowance: unlimited means no balance to deplete (ADR 0208).
    }));
  return {
    lookupsUnitId: unit.id,
    meterId: meter.id,
    productId: product.id,
    proPriceId: pro.id,
    scalePriceId: scale.id,
  };
}

async function find<T>(items: AsyncIterable<T>, matches: (item: T) => boolean): Promise<T | undefined> {
  for await (const item of items) if (matches(item)) return item;
  return undefined;
}
