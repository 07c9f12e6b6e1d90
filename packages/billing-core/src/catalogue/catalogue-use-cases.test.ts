/**
 * The catalogue's use cases against a plain in-memory object of its slice (ADR 0922): what they
 * store, the events they record and what they refuse, with no database. The engine tests of
 * the same use cases run through SQLite and PostgreSQL (`apps/billing-service/test/catalogue`).
 */
import { describe, expect, it } from 'vitest';
import { fixedClock, LIVE, MemoryCollection, MemoryEventLog, memoryBase, storeOf } from '../../test/memory-store.js';
import { BillingError } from '../shared/billing-error.js';
import { catalogueUseCases } from './catalogue-use-cases.js';
import type { CatalogueSlice } from './repositories.js';

function catalogue() {
  const events = new MemoryEventLog();
  const slice: CatalogueSlice = {
    products: new MemoryCollection({
      id: (p) => p.id,
      status: (p) => p.status,
      type: (p) => p.type,
      tax_category: (p) => p.taxCategory,
    }),
    prices: new MemoryCollection({
      id: (p) => p.id,
      product_id: (p) => p.productId,
      status: (p) => p.status,
      type: (p) => p.type,
      recurring: (p) => p.billingCycle !== null,
    }),
    customers: new MemoryCollection({
      id: (c) => c.id,
      status: (c) => c.status,
      email: (c) => c.email,
      search: (c) => `${c.name ?? ''} ${c.email}`,
    }),
    addresses: new MemoryCollection({
      id: (a) => a.id,
      customer_id: (a) => a.customerId,
      status: (a) => a.status,
      search: (a) => `${a.firstLine ?? ''} ${a.city ?? ''}`,
    }),
    businesses: new MemoryCollection({
      id: (b) => b.id,
      customer_id: (b) => b.customerId,
      status: (b) => b.status,
      search: (b) => b.name,
    }),
    usageBalanceUnits: new MemoryCollection({ id: (u) => u.id, status: (u) => u.status }),
    meters: new MemoryCollection({
      id: (m) => m.id,
      status: (m) => m.status,
      usage_balance_unit_id: (m) => m.usageBalanceUnitId,
      action: (m) => m.action,
    }),
    events,
  };
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  return { events, clock, useCases: catalogueUseCases(memoryBase(storeOf(slice), clock)) };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BillingError)) throw new Error(`expected a BillingError, got ${String(error)}`);
  return error.code;
}

describe('catalogue use cases on an in-memory slice', () => {
  it('creates a product with its event, reads it back and lists it by status', async () => {
    const { useCases, events } = catalogue();
    const product = await useCases.createProduct(LIVE, { name: 'Compute', taxCategory: 'standard' });
    expect(product).toMatchObject({
      name: 'Compute',
      status: 'active',
      type: 'standard',
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    expect(await useCases.getProduct(LIVE, product.id)).toEqual(product);
    expect(events.typesIn(LIVE.scope)).toEqual(['product.created']);

    const archived = await useCases.updateProduct(LIVE, product.id, { status: 'archived' });
    expect(archived.status).toBe('archived');
    expect(events.typesIn(LIVE.scope)).toEqual(['product.created', 'product.updated']);
    const active = await useCases.listProducts(LIVE, {
      filter: { status: [{ op: 'in', values: ['active'] }] },
      perPage: 10,
      direction: 'asc',
    });
    expect(active.items).toEqual([]);
  });

  it('keeps each environment apart', async () => {
    const { useCases } = catalogue();
    const product = await useCases.createProduct(LIVE, { name: 'Compute', taxCategory: 'standard' });
    const sandbox = { ...LIVE, scope: { ...LIVE.scope, environment: 'sandbox' as const } };
    expect(await refusal(useCases.getProduct(sandbox, product.id))).toBe('not_found');
  });

  it('refuses a price for a product that is missing or archived, and stores none', async () => {
    const { useCases, events } = catalogue();
    const unitPrice = { amount: '1000', currencyCode: 'EUR' };
    expect(
      await refusal(useCases.createPrice(LIVE, { productId: 'pro_missing', description: 'Monthly', unitPrice })),
    ).toBe('product_not_found');
    const product = await useCases.createProduct(LIVE, { name: 'Compute', taxCategory: 'standard' });
    await useCases.updateProduct(LIVE, product.id, { status: 'archived' });
    expect(
      await refusal(useCases.createPrice(LIVE, { productId: product.id, description: 'Monthly', unitPrice })),
    ).toBe('entity_archived');
    const prices = await useCases.listPrices(LIVE, { filter: {}, perPage: 10, direction: 'asc' });
    expect(prices.items).toEqual([]);
    expect(events.typesIn(LIVE.scope)).toEqual(['product.created', 'product.updated']);
  });

  it('prices an active product, and lists its prices with the product included', async () => {
    const { useCases } = catalogue();
    const product = await useCases.createProduct(LIVE, { name: 'Compute', taxCategory: 'standard' });
    const price = await useCases.createPrice(LIVE, {
      productId: product.id,
      description: 'Monthly',
      unitPrice: { amount: '1000', currencyCode: 'EUR' },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    expect(price).toMatchObject({ productId: product.id, status: 'active', unitPrice: { amount: '1000' } });
    const recurring = await useCases.listPrices(LIVE, {
      filter: { recurring: [{ op: 'eq', value: true }] },
      perPage: 10,
      direction: 'asc',
    });
    expect(recurring.items.map((item) => item.id)).toEqual([price.id]);
  });
});
