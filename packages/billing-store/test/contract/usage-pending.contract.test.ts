/**
 * Taking pending usage events (ADRs 0716, 0717): the oldest first, taken off the pending list in the taker's
 * transaction and pending again if it rolls back; on PostgreSQL a second transaction skips the
 * events a first one holds instead of taking them twice.
 */
import type { Scope, Store } from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCustomer, freshScope } from '../support/builders.js';

const ACCEPTED_AT = '2026-01-01T00:00:00.000Z';

describe.each(ENGINES)('%s: taking pending usage events', (engine) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(engine));
  });
  afterAll(() => dispose());

  /** A fresh scope with `count` accepted events, their keys in order of acceptance. */
  async function accepted(count: number): Promise<{ scope: Scope; keys: string[] }> {
    const scope = freshScope();
    const customer = aCustomer();
    await store.customers.insert(scope, customer);
    const keys: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const key = `key-${index}`;
      const outcome = await store.usageIngest.record(
        scope,
        {
          id: `uev_${scope.accountId.slice(-20)}${String(index).padStart(6, '0')}`,
          customerId: customer.id,
          action: 'api_call',
          eventKey: key,
          quantity: '1',
          occurredAt: ACCEPTED_AT,
        },
        ACCEPTED_AT,
      );
      expect(outcome).toBe('recorded');
      keys.push(key);
    }
    return { scope, keys };
  }

  const keysOf = (taken: readonly { event: { eventKey: string } }[]) => taken.map((item) => item.event.eventKey);

  it('takes the oldest first and never the same event twice', async () => {
    const { scope, keys } = await accepted(5);
    const first = await store.transaction((tx) => tx.usageEvents.takePending(3, scope));
    expect(keysOf(first)).toEqual(keys.slice(0, 3));
    expect(first.map((item) => item.sequence)).toEqual([...first.map((item) => item.sequence)].sort((a, b) => a - b));
    expect(await store.usageEvents.hasPending(scope)).toBe(true);
    const second = await store.transaction((tx) => tx.usageEvents.takePending(3, scope));
    expect(keysOf(second)).toEqual(keys.slice(3));
    expect(await store.usageEvents.hasPending(scope)).toBe(false);
    expect(await store.transaction((tx) => tx.usageEvents.takePending(3, scope))).toEqual([]);
  });

  it('leaves the events pending when the transaction rolls back', async () => {
    const { scope, keys } = await accepted(2);
    const failure = new Error('drawdown failed');
    await expect(
      store.transaction(async (tx) => {
        expect(keysOf(await tx.usageEvents.takePending(10, scope))).toEqual(keys);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.usageEvents.hasPending(scope)).toBe(true);
    const again = await store.transaction((tx) => tx.usageEvents.takePending(10, scope));
    expect(keysOf(again)).toEqual(keys);
  });

  it.runIf(engine === 'sqlite')(
    'takes the events its ingest remembers exactly as stored, and reads back those it no longer does',
    async () => {
      // A store of its own: an unscoped take takes every pending event of the store.
      const own = await openTestStore(engine);
      try {
        const scope = freshScope();
        const customer = aCustomer();
        await own.store.customers.insert(scope, customer);
        const record = (index: number) =>
          own.store.usageIngest.record(
            scope,
            {
              id: `uev_${scope.accountId.slice(-20)}${String(index).padStart(6, '0')}`,
              customerId: customer.id,
              action: 'api_call',
              eventKey: `key-${index}`,
              quantity: '1',
              occurredAt: '2026-01-01T00:00:00.500Z',
            },
            ACCEPTED_AT,
          );
        await Promise.all([0, 1, 2].map(record));
        const stored = await own.store.transaction((tx) => tx.usageEvents.claimPending(10));
        expect(stored).toHaveLength(3);
        // Remembered by the ingest: the same events, field for field, as the table holds them.
        expect(await own.store.transaction((tx) => tx.usageEvents.takePending(10))).toEqual(stored);
        expect(await own.store.transaction((tx) => tx.usageEvents.takePending(10))).toEqual([]);

        await Promise.all([3, 4].map(record));
        const more = await own.store.transaction((tx) => tx.usageEvents.claimPending(10));
        const failure = new Error('drawdown failed');
        await expect(
          own.store.transaction(async (tx) => {
            expect(await tx.usageEvents.takePending(10)).toEqual(more);
            throw failure;
          }),
        ).rejects.toBe(failure);
        // Taken once from memory and rolled back: pending again, now read from the table.
        expect(await own.store.transaction((tx) => tx.usageEvents.takePending(10))).toEqual(more);
      } finally {
        await own.dispose();
      }
    },
  );

  it.runIf(engine === 'postgres')('skips what another open transaction holds', async () => {
    const { scope, keys } = await accepted(4);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let tookFirst: (taken: string[]) => void = () => {};
    const firstTaken = new Promise<string[]>((resolve) => {
      tookFirst = resolve;
    });
    const first = store.transaction(async (tx) => {
      tookFirst(keysOf(await tx.usageEvents.takePending(2, scope)));
      await held;
    });
    expect(await firstTaken).toEqual(keys.slice(0, 2));
    const second = await store.transaction((tx) => tx.usageEvents.takePending(10, scope));
    expect(keysOf(second)).toEqual(keys.slice(2));
    release();
    await first;
    expect(await store.usageEvents.hasPending(scope)).toBe(false);
  });
});
