/**
 * @module
 * Wakes the delivery worker when a transaction that wrote an outbox event commits, so a
 * webhook leaves at once instead of at the next poll. Only this process's writes wake it;
 * events written by other processes are found by polling.
 */
import type { EventLog, Repositories, Store } from '@drawdown/billing-core';
import { forwarding } from '../../infrastructure/forwarding.js';

/** The same store, whose committed transactions call `wake` when they appended an event. */
export function wakeOnEvents(store: Store, wake: () => void): Store {
  const transaction: Store['transaction'] = async (work) => {
    let appended = false;
    const result = await store.transaction((tx) => {
      const events = forwarding<EventLog>(tx.events, {
        append: async (scope, event) => {
          await tx.events.append(scope, event);
          appended = true;
        },
      });
      return work(forwarding<Repositories>(tx, { events }));
    });
    if (appended) wake();
    return result;
  };
  return forwarding(store, { transaction });
}
