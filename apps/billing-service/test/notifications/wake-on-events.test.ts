/** The delivery worker is woken by committed transactions that wrote an event, and only by those. */
import type { Repositories, Store, StoredEvent } from '@drawdown/billing-core';
import { describe, expect, it } from 'vitest';
import { wakeOnEvents } from '../../src/workers/webhook-delivery/wake-on-events.js';

const scope = { accountId: 'acc_01h0000000000000000000000a', environment: 'sandbox' as const };
const event: StoredEvent = {
  id: 'evt_01h0000000000000000000000a',
  eventType: 'product.created',
  occurredAt: '2026-01-01T00:00:00.000Z',
  entityKind: 'product',
  entity: {},
};

/** A store whose transactions run the work against a recording event log. */
function fakeStore(appended: StoredEvent[]): Store {
  const tx = {
    events: {
      append: async (_scope: unknown, stored: StoredEvent) => {
        appended.push(stored);
      },
      list: async () => ({ items: appended, hasMore: false, estimatedTotal: appended.length }),
    },
  } as unknown as Repositories;
  return {
    transaction: async <T>(work: (repositories: Repositories) => Promise<T>) => work(tx),
    close: async () => {},
  } as unknown as Store;
}

describe('wakeOnEvents', () => {
  it('wakes after a transaction that appended an event commits', async () => {
    const appended: StoredEvent[] = [];
    let wakes = 0;
    const store = wakeOnEvents(fakeStore(appended), () => {
      wakes += 1;
    });
    const result = await store.transaction(async (tx) => {
      await tx.events.append(scope, event);
      expect(wakes).toBe(0);
      return 'done';
    });
    expect(result).toBe('done');
    expect(appended).toEqual([event]);
    expect(wakes).toBe(1);
  });

  it('does not wake for a transaction without events, nor for one that fails', async () => {
    let wakes = 0;
    const store = wakeOnEvents(fakeStore([]), () => {
      wakes += 1;
    });
    await store.transaction(
      async (tx) => (await tx.events.list(scope, { filter: {}, perPage: 1, direction: 'asc' })).items,
    );
    await expect(
      store.transaction(async (tx) => {
        await tx.events.append(scope, event);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(wakes).toBe(0);
  });

  it('passes everything else through to the store', async () => {
    let closed = false;
    const base = fakeStore([]);
    const close = async () => {
      closed = true;
    };
    const store = wakeOnEvents({ ...base, close } as Store, () => {});
    await store.close();
    expect(closed).toBe(true);
  });
});
