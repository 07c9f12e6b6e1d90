/**
 * The document collections behind the core's `Collection` port behave the same on both
 * engines: writes, reads, every filter operator, cursor pages in both directions, totals,
 * unique indexes and scope isolation.
 */
import {
  DuplicateKeyError,
  type FilterCondition,
  type ListQuery,
  type Product,
  type Store,
} from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCustomer, aMeter, aPrice, aProduct, aUnit, freshScope } from '../support/builders.js';

function query<Column extends string>(overrides: Partial<ListQuery<Column>> = {}): ListQuery<Column> {
  return { filter: {}, perPage: 50, direction: 'asc', ...overrides };
}

describe.each(ENGINES)('%s: document collections', (engine) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(engine));
  });
  afterAll(() => dispose());

  async function insertProducts(scope = freshScope(), products: readonly Product[] = []) {
    for (const product of products) await store.products.insert(scope, product);
    return scope;
  }

  describe('writes and reads', () => {
    it('finds an inserted entity by id, whole', async () => {
      const scope = freshScope();
      const product = aProduct({ customData: { nested: { list: [1, 'two', null] } }, description: 'it’s “quoted”' });
      await store.products.insert(scope, product);
      expect(await store.products.findById(scope, product.id)).toEqual(product);
      expect(await store.products.findByIdForUpdate(scope, product.id)).toEqual(product);
    });

    it('answers undefined for an id it does not hold', async () => {
      expect(await store.products.findById(freshScope(), 'pro_00000000000000000000000000')).toBeUndefined();
    });

    it('replaces the document and its promoted columns on update', async () => {
      const scope = freshScope();
      const product = aProduct();
      await store.products.insert(scope, product);
      const archived = { ...product, name: 'Renamed', status: 'archived' as const };
      await store.products.update(scope, archived);
      expect(await store.products.findById(scope, product.id)).toEqual(archived);
      const active = await store.products.list(
        scope,
        query({ filter: { status: [{ op: 'in', values: ['active'] }] } }),
      );
      expect(active.items).toEqual([]);
      const found = await store.products.list(
        scope,
        query({ filter: { status: [{ op: 'in', values: ['archived'] }] } }),
      );
      expect(found.items).toEqual([archived]);
    });

    it('stores injection strings as plain text', async () => {
      const scope = freshScope();
      const hostile = aProduct({ name: "'; drop table products; --", description: '<script>alert(1)</script>' });
      await store.products.insert(scope, hostile);
      expect(await store.products.findById(scope, hostile.id)).toEqual(hostile);
      const page = await store.customers.list(
        scope,
        query({ filter: { email: [{ op: 'in', values: ["' or 1=1 --"] }] } }),
      );
      expect(page.items).toEqual([]);
    });
  });

  describe('filters', () => {
    it('filters with in, over one or several values, and with an empty list matches nothing', async () => {
      const saas = aProduct({ taxCategory: 'saas' });
      const ebook = aProduct({ taxCategory: 'ebooks' });
      const standard = aProduct({ taxCategory: 'standard' });
      const scope = await insertProducts(freshScope(), [saas, ebook, standard]);
      const by = async (condition: FilterCondition) =>
        (await store.products.list(scope, query({ filter: { tax_category: [condition] } }))).items.map((p) => p.id);
      expect(await by({ op: 'in', values: ['saas'] })).toEqual([saas.id]);
      expect(await by({ op: 'in', values: ['saas', 'ebooks'] })).toEqual([saas.id, ebook.id]);
      expect(await by({ op: 'in', values: [] })).toEqual([]);
    });

    it('filters with eq on text, on booleans and on null', async () => {
      const scope = freshScope();
      const recurring = aPrice();
      const oneOff = aPrice({ billingCycle: null });
      await store.prices.insert(scope, recurring);
      await store.prices.insert(scope, oneOff);
      const by = async (condition: FilterCondition) =>
        (await store.prices.list(scope, query({ filter: { recurring: [condition] } }))).items.map((p) => p.id);
      expect(await by({ op: 'eq', value: true })).toEqual([recurring.id]);
      expect(await by({ op: 'eq', value: false })).toEqual([oneOff.id]);
      expect(await by({ op: 'eq', value: 'true' })).toEqual([recurring.id]);
      expect(await by({ op: 'eq', value: null })).toEqual([]);
    });

    it('filters with lt, lte, gt and gte', async () => {
      const products = [aProduct(), aProduct(), aProduct()];
      const [first, second, third] = products as [Product, Product, Product];
      const scope = await insertProducts(freshScope(), products);
      const by = async (condition: FilterCondition) =>
        (await store.products.list(scope, query({ filter: { id: [condition] } }))).items.map((p) => p.id);
      expect(await by({ op: 'lt', value: second.id })).toEqual([first.id]);
      expect(await by({ op: 'lte', value: second.id })).toEqual([first.id, second.id]);
      expect(await by({ op: 'gt', value: second.id })).toEqual([third.id]);
      expect(await by({ op: 'gte', value: second.id })).toEqual([second.id, third.id]);
    });

    it('filters with contains, treating %, _ and \\ as literal characters', async () => {
      const scope = freshScope();
      const plain = aCustomer({ name: 'ada lovelace' });
      const percent = aCustomer({ name: '100% sure' });
      const underscore = aCustomer({ name: 'snake_case' });
      const backslash = aCustomer({ name: 'back\\slash' });
      for (const customer of [plain, percent, underscore, backslash]) await store.customers.insert(scope, customer);
      const by = async (value: string) =>
        (await store.customers.list(scope, query({ filter: { search: [{ op: 'contains', value }] } }))).items.map(
          (c) => c.id,
        );
      expect(await by('lovelace')).toEqual([plain.id]);
      expect(await by('%')).toEqual([percent.id]);
      // Every search text holds the customer's id (`ctm_…`), so a lone `_` would match them all.
      expect(await by('snake_')).toEqual([underscore.id]);
      expect(await by('\\')).toEqual([backslash.id]);
      expect(await by('e_c')).toEqual([underscore.id]);
      expect(await by('nobody')).toEqual([]);
    });

    it('combines conditions on one column and across columns with and', async () => {
      const scope = freshScope();
      const unit = aUnit();
      const wanted = aMeter({ usageBalanceUnitId: unit.id, action: 'api_call' });
      const otherAction = aMeter({ usageBalanceUnitId: unit.id, action: 'export' });
      const archived = aMeter({ usageBalanceUnitId: unit.id, action: 'import', status: 'archived' });
      const otherUnit = aMeter({ action: 'api_call' });
      for (const meter of [wanted, otherAction, archived, otherUnit]) await store.meters.insert(scope, meter);
      const page = await store.meters.list(
        scope,
        query({
          filter: {
            usage_balance_unit_id: [{ op: 'in', values: [unit.id] }],
            status: [{ op: 'in', values: ['active'] }],
            action: [
              { op: 'in', values: ['api_call', 'export'] },
              { op: 'lt', value: 'b' },
            ],
          },
        }),
      );
      expect(page.items.map((meter) => meter.id)).toEqual([wanted.id]);
      expect(page.estimatedTotal).toBe(1);
    });
  });

  describe('cursor pages', () => {
    const products = Array.from({ length: 5 }, () => aProduct());
    const ids = products.map((product) => product.id);
    let scope: ReturnType<typeof freshScope>;

    beforeAll(async () => {
      scope = await insertProducts(freshScope(), products);
    });

    it('walks ascending pages after the last id, with has_more until the end', async () => {
      const first = await store.products.list(scope, query({ perPage: 2 }));
      expect(first.items.map((p) => p.id)).toEqual(ids.slice(0, 2));
      expect(first.hasMore).toBe(true);
      const second = await store.products.list(scope, query({ perPage: 2, after: ids[1] }));
      expect(second.items.map((p) => p.id)).toEqual(ids.slice(2, 4));
      expect(second.hasMore).toBe(true);
      const last = await store.products.list(scope, query({ perPage: 2, after: ids[3] }));
      expect(last.items.map((p) => p.id)).toEqual(ids.slice(4));
      expect(last.hasMore).toBe(false);
    });

    it('walks descending pages after the last id', async () => {
      const reversed = [...ids].reverse();
      const first = await store.products.list(scope, query({ perPage: 3, direction: 'desc' }));
      expect(first.items.map((p) => p.id)).toEqual(reversed.slice(0, 3));
      expect(first.hasMore).toBe(true);
      const second = await store.products.list(scope, query({ perPage: 3, direction: 'desc', after: reversed[2] }));
      expect(second.items.map((p) => p.id)).toEqual(reversed.slice(3));
      expect(second.hasMore).toBe(false);
    });

    it('says no more when a page ends exactly at the last entity', async () => {
      const page = await store.products.list(scope, query({ perPage: 5 }));
      expect(page.items).toHaveLength(5);
      expect(page.hasMore).toBe(false);
    });

    it('answers an empty page after the last id, or after an id it never held', async () => {
      const after = await store.products.list(scope, query({ after: ids[4] }));
      expect(after).toEqual({ items: [], hasMore: false, estimatedTotal: 5 });
      const beyond = await store.products.list(scope, query({ after: 'pro_zzzzzzzzzzzzzzzzzzzzzzzzzz' }));
      expect(beyond.items).toEqual([]);
    });

    it('counts every match as the estimated total, whatever the page and cursor', async () => {
      expect((await store.products.list(scope, query({ perPage: 1 }))).estimatedTotal).toBe(5);
      expect((await store.products.list(scope, query({ perPage: 1, after: ids[3] }))).estimatedTotal).toBe(5);
      const filtered = await store.products.list(
        scope,
        query({ filter: { id: [{ op: 'in', values: [ids[0] ?? '', ids[1] ?? ''] }] } }),
      );
      expect(filtered.estimatedTotal).toBe(2);
      expect((await store.products.list(freshScope(), query())).estimatedTotal).toBe(0);
    });
  });

  describe('unique indexes', () => {
    it('refuses a second entity with the same id in the same scope with DuplicateKeyError', async () => {
      const scope = freshScope();
      const product = aProduct();
      await store.products.insert(scope, product);
      await expect(store.products.insert(scope, { ...product, name: 'Again' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect((await store.products.findById(scope, product.id))?.name).toBe(product.name);
    });

    it('refuses a second customer with the same email, on insert and on update', async () => {
      const scope = freshScope();
      const first = aCustomer({ email: 'same@example.com' });
      const second = aCustomer();
      await store.customers.insert(scope, first);
      await store.customers.insert(scope, second);
      await expect(store.customers.insert(scope, aCustomer({ email: 'same@example.com' }))).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(store.customers.update(scope, { ...second, email: 'same@example.com' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect((await store.customers.findById(scope, second.id))?.email).toBe(second.email);
    });

    it('refuses two meters with the same action and unit, even when one is archived', async () => {
      const scope = freshScope();
      const archived = aMeter({ action: 'api_call', status: 'archived' });
      await store.meters.insert(scope, archived);
      await expect(
        store.meters.insert(scope, aMeter({ usageBalanceUnitId: archived.usageBalanceUnitId, action: 'api_call' })),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      await store.meters.insert(scope, aMeter({ usageBalanceUnitId: archived.usageBalanceUnitId, action: 'other' }));
      await store.meters.insert(scope, aMeter({ action: 'api_call' }));
    });
  });

  describe('scopes', () => {
    it('keeps each account’s entities to itself', async () => {
      const mine = freshScope();
      const theirs = freshScope();
      const product = aProduct();
      await store.products.insert(mine, product);
      expect(await store.products.findById(theirs, product.id)).toBeUndefined();
      expect(await store.products.findByIdForUpdate(theirs, product.id)).toBeUndefined();
      expect((await store.products.list(theirs, query())).items).toEqual([]);
    });

    it('keeps live and sandbox apart within one account, even for the same id', async () => {
      const sandbox = freshScope('sandbox');
      const live = { ...sandbox, environment: 'live' as const };
      const product = aProduct({ name: 'Sandbox product' });
      await store.products.insert(sandbox, product);
      expect(await store.products.findById(live, product.id)).toBeUndefined();
      await store.products.insert(live, { ...product, name: 'Live product' });
      expect((await store.products.findById(sandbox, product.id))?.name).toBe('Sandbox product');
      expect((await store.products.findById(live, product.id))?.name).toBe('Live product');
    });

    it('does not touch another scope’s entity on update', async () => {
      const mine = freshScope();
      const product = aProduct();
      await store.products.insert(mine, product);
      await store.products.update(freshScope(), { ...product, name: 'Hijacked' });
      expect((await store.products.findById(mine, product.id))?.name).toBe(product.name);
    });

    it('lets two accounts use the same customer email and meter action', async () => {
      const [first, second] = [freshScope(), freshScope()];
      const unitId = aUnit().id;
      for (const scope of [first, second]) {
        await store.customers.insert(scope, aCustomer({ email: 'shared@example.com' }));
        await store.meters.insert(scope, aMeter({ usageBalanceUnitId: unitId, action: 'api_call' }));
      }
      expect((await store.customers.list(first, query())).estimatedTotal).toBe(1);
      expect((await store.customers.list(second, query())).estimatedTotal).toBe(1);
    });
  });
});
