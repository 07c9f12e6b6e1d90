/**
 * ADRs 1435 and 1436, on both engines: a product of every category, priced in `location` mode,
 * is previewed for a German, a British, a Californian and an Australian address. Each line takes
 * the dataset's standard rate of the place, except `ebooks` where the reduced-rate table has a
 * rate (Germany 7%, the UK 0%): adding a category rule without its row in ADR 1436 fails here.
 */
import { TAX_CATEGORY } from '@drawdown/billing-contract';
import { TAX_RATE_DATASET } from '@drawdown/billing-core';

/** What ADR 1436's table says each category pays in each place (now). */
const REDUCED: Readonly<Record<string, Readonly<Record<string, string>>>> = { ebooks: { DE: '0.07', GB: '0' } };

import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';

const PLACES = [
  { country_code: 'DE', rate: TAX_RATE_DATASET.countries.DE?.rate },
  { country_code: 'GB', rate: TAX_RATE_DATASET.countries.GB?.rate },
  { country_code: 'US', postal_code: '94105', rate: TAX_RATE_DATASET.countries.US?.regions?.CA?.rate },
  { country_code: 'AU', rate: TAX_RATE_DATASET.countries.AU?.rate },
] as const;

describe.each(ENGINES)('%s: tax categories (ADRs 1435, 1436)', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  const prices = new Map<string, string>();

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    const settings = await sandbox.patch('/tax-settings', { default_tax_mode: 'location', seller_country_code: 'DE' });
    expect(settings.status, settings.text).toBe(200);
    for (const category of TAX_CATEGORY.options) {
      const product = await sandbox.post('/products', { name: `A ${category} product`, tax_category: category });
      expect(product.status, product.text).toBe(201);
      const price = await sandbox.post('/prices', {
        product_id: product.id,
        description: category,
        unit_price: { amount: '10000', currency_code: 'USD' },
        tax_mode: 'location',
      });
      expect(price.status, price.text).toBe(201);
      prices.set(category, price.id);
    }
  });
  afterAll(() => harness.close());

  it.each(PLACES)('charges every category but e-books the standard rate in $country_code', async ({
    rate,
    ...address
  }) => {
    expect(rate).toMatch(/^0\.\d+$/);
    const { country_code, ...rest } = address as { country_code: string; postal_code?: string };
    const preview = await sandbox.post('/pricing-preview', {
      items: [...prices.values()].map((price_id) => ({ price_id, quantity: 1 })),
      address: { country_code, ...rest },
    });
    expect(preview.status, preview.text).toBe(200);
    const lines = (preview.entity.details as { line_items: { tax_rate: string; product: { tax_category: string } }[] })
      .line_items;
    expect(lines.map((line) => line.product.tax_category).sort()).toEqual([...TAX_CATEGORY.options].sort());
    for (const line of lines) {
      const expected = REDUCED[line.product.tax_category]?.[country_code] ?? rate;
      expect(line.tax_rate, line.product.tax_category).toBe(expected);
    }
  });
});
