/**
 * A transaction commits every write, outbox rows included, or none of them; reads outside it
 * never see its uncommitted writes.
 */
import { DuplicateKeyError, type Store } from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCustomer, anEvent, aProduct, freshScope } from '../support/builders.js';

const everything = { filter: {}, perPage: 50, direction: 'asc' } as const;

describe.each(ENGINES)('%s: transactions and the outbox', (engine) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(engine));
  });
  afterAll(() => dispose());

  it('commits the entity and its outbox row together', async () => {
    const scope = freshScope();
    const product = aProduct();
    const event = anEvent(product);
    const returned = await store.transaction(async (tx) => {
      await tx.products.insert(scope, product);
      await tx.events.append(scope, event);
      return 'done';
    });
    expect(returned).toBe('done');
    expect(await store.products.findById(scope, product.id)).toEqual(product);
    // The list names each event's first notification (ADR 1473): none was made for this one.
    expect((await store.events.list(scope, everything)).items).toEqual([{ ...event, notificationId: null }]);
  });

  it('rolls back every write, the outbox row included, when the work throws', async () => {
    const scope = freshScope();
    const product = aProduct();
    const failure = new Error('boom');
    await expect(
      store.transaction(async (tx) => {
        await tx.products.insert(scope, product);
        await tx.events.append(scope, anEvent(product));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.products.findById(scope, product.id)).toBeUndefined();
    expect(await store.events.list(scope, everything)).toEqual({ items: [], hasMore: false, estimatedTotal: 0 });
  });

  it('rolls back earlier writes when a later one breaks a unique index', async () => {
    const scope = freshScope();
    const existing = aCustomer({ email: 'taken@example.com' });
    await store.customers.insert(scope, existing);
    const product = aProduct();
    await expect(
      store.transaction(async (tx) => {
        await tx.products.insert(scope, product);
        await tx.events.append(scope, anEvent(product));
        await tx.customers.insert(scope, aCustomer({ email: 'taken@example.com' }));
      }),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await store.products.findById(scope, product.id)).toBeUndefined();
    expect((await store.events.list(scope, everything)).items).toEqual([]);
    expect((await store.customers.list(scope, everything)).items).toEqual([existing]);
  });

  it('keeps uncommitted writes invisible to reads outside the transaction', async () => {
    const scope = freshScope();
    const product = aProduct();
    let seenOutside: unknown = 'not read';
    await store.transaction(async (tx) => {
      await tx.products.insert(scope, product);
      expect(await tx.products.findById(scope, product.id)).toEqual(product);
      seenOutside = await store.products.findById(scope, product.id);
    });
    expect(seenOutside).toBeUndefined();
    expect(await store.products.findById(scope, product.id)).toEqual(product);
  });

  it('runs transactions one after another without losing updates', async () => {
    const scope = freshScope();
    const product = aProduct({ name: '0' });
    await store.products.insert(scope, product);
    await Promise.all(
      Array.from({ length: 8 }, () =>
        store.transaction(async (tx) => {
          const current = await tx.products.findByIdForUpdate(scope, product.id);
          if (!current) throw new Error('missing');
          await tx.products.update(scope, { ...current, name: String(Number(current.name) + 1) });
        }),
      ),
    );
    expect((await store.products.findById(scope, product.id))?.name).toBe('8');
  });

  it('lists events by type, in id order, scoped like everything else', async () => {
    const scope = freshScope();
    const product = aProduct();
    const created = anEvent(product, 'product.created');
    const updated = anEvent(product, 'product.updated');
    await store.transaction(async (tx) => {
      await tx.events.append(scope, created);
      await tx.events.append(scope, updated);
    });
    const byType = await store.events.list(scope, {
      ...everything,
      filter: { event_type: [{ op: 'in', values: ['product.updated'] }] },
    });
    const listed = (event: typeof created) => ({ ...event, notificationId: null });
    expect(byType.items).toEqual([listed(updated)]);
    expect((await store.events.list(scope, { ...everything, direction: 'desc' })).items).toEqual([
      listed(updated),
      listed(created),
    ]);
    expect((await store.events.list(freshScope(), everything)).items).toEqual([]);
  });
});
