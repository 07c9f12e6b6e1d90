/**
 * One group-commit batch of usage events naming several customers, actions and quantities: each
 * event is decided on its own customer and meters, and drawn by its own quantity, although the
 * SQLite ingest reads each customer and each action's meters once per batch and lists the
 * batch's new events pending in one statement (ADR 0720).
 */
import type { Scope, Store } from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCustomer, aMeter, freshScope, nextId } from '../support/builders.js';

const AT = '2026-01-01T00:00:00.000Z';

describe.each(ENGINES)('%s: a batch of usage events of several customers and actions', (engine) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(engine));
  });
  afterAll(() => dispose());

  it('decides every event by its own customer, meters and quantity', async () => {
    const scope: Scope = freshScope();
    const other: Scope = freshScope();
    const active = aCustomer();
    const archived = aCustomer({ status: 'archived' });
    const elsewhere = aCustomer();
    await store.customers.insert(scope, active);
    await store.customers.insert(scope, archived);
    await store.customers.insert(other, elsewhere);
    const calls = aMeter({ action: 'api_call', rate: '2' });
    const rows = aMeter({ action: 'rows_read', rate: '0.5' });
    const otherCalls = aMeter({ action: 'api_call', rate: '7' });
    await store.meters.insert(scope, calls);
    await store.meters.insert(scope, rows);
    await store.meters.insert(other, otherCalls);

    const sent: [Scope, string, string, string, string][] = [
      [scope, active.id, 'api_call', '1', 'a1'],
      [scope, archived.id, 'api_call', '1', 'b1'],
      [scope, active.id, 'api_call', '3', 'a2'],
      [scope, nextId('ctm'), 'api_call', '1', 'c1'],
      [scope, active.id, 'rows_read', '3', 'a3'],
      [other, elsewhere.id, 'api_call', '1', 'e1'],
      // The same customer id in another scope is another customer: unknown there.
      [other, active.id, 'api_call', '1', 'e2'],
      [scope, active.id, 'api_call', '1', 'a1'],
      [scope, active.id, 'api_call', '1', 'a4'],
      [scope, archived.id, 'rows_read', '1', 'b2'],
    ];
    // Submitted in one turn of the event loop: they share one group commit.
    const outcomes = await Promise.all(
      sent.map(([eventScope, customerId, action, quantity, eventKey]) =>
        store.usageIngest.record(
          eventScope,
          { id: nextId('uev'), customerId, action, quantity, eventKey, occurredAt: AT },
          AT,
        ),
      ),
    );
    expect(outcomes).toEqual([
      'recorded',
      'archived_customer',
      'recorded',
      'unknown_customer',
      'recorded',
      'recorded',
      'unknown_customer',
      'duplicate',
      'recorded',
      'archived_customer',
    ]);

    const drawn = (
      events: readonly { eventKey: string; drawdowns: readonly { meterId: string; amount: string }[] }[],
    ) =>
      Object.fromEntries(
        events.map((event) => [event.eventKey, event.drawdowns.map((d) => `${d.meterId}:${d.amount}`)]),
      );
    expect(drawn(await store.usageEvents.listByCustomer(scope, active.id))).toEqual({
      a1: [`${calls.id}:2`],
      a2: [`${calls.id}:6`],
      a3: [`${rows.id}:1.5`],
      a4: [`${calls.id}:2`],
    });
    expect(drawn(await store.usageEvents.listByCustomer(other, elsewhere.id))).toEqual({ e1: [`${otherCalls.id}:7`] });

    const taken = await store.transaction((tx) => tx.usageEvents.takePending(100, scope));
    expect(taken.map((item) => item.event.eventKey)).toEqual(['a1', 'a2', 'a3', 'a4']);
    const takenOther = await store.transaction((tx) => tx.usageEvents.takePending(100, other));
    expect(takenOther.map((item) => item.event.eventKey)).toEqual(['e1']);
  });

  it('decides a later batch on the customers and meters as they are then (ADR 0750)', async () => {
    const scope: Scope = freshScope();
    const first = aCustomer();
    const second = aCustomer();
    await store.customers.insert(scope, first);
    await store.customers.insert(scope, second);
    const calls = aMeter({ action: 'api_call', rate: '2' });
    await store.meters.insert(scope, calls);
    const send = (sent: readonly [string, string, string][]) =>
      Promise.all(
        sent.map(([customerId, action, eventKey]) =>
          store.usageIngest.record(
            scope,
            { id: nextId('uev'), customerId, action, quantity: '1', eventKey, occurredAt: AT },
            AT,
          ),
        ),
      );
    // The first batch reads the action's meters (and, on PostgreSQL, remembers them).
    expect(await send([[first.id, 'api_call', 'k1']])).toEqual(['recorded']);
    // The same meters, the same customers: decided as the first batch was, duplicates included.
    expect(
      await send([
        [first.id, 'api_call', 'k2'],
        [second.id, 'api_call', 'k3'],
        [first.id, 'api_call', 'k1'],
        [nextId('ctm'), 'api_call', 'k4'],
      ]),
    ).toEqual(['recorded', 'recorded', 'duplicate', 'unknown_customer']);
    // A customer archived and a meter's rate changed since: the next batch sees both.
    await store.customers.update(scope, { ...second, status: 'archived' });
    await store.meters.update(scope, { ...calls, rate: '5', updatedAt: '2026-01-02T00:00:00.000Z' });
    expect(
      await send([
        [first.id, 'api_call', 'k5'],
        [second.id, 'api_call', 'k6'],
      ]),
    ).toEqual(['recorded', 'archived_customer']);
    // A meter added to the action since: the next event draws from both.
    const more = aMeter({ action: 'api_call', rate: '3' });
    await store.meters.insert(scope, more);
    expect(await send([[first.id, 'api_call', 'k7']])).toEqual(['recorded']);
    const drawn = Object.fromEntries(
      (await store.usageEvents.listByCustomer(scope, first.id)).map((event) => [
        event.eventKey,
        event.drawdowns.map((d) => `${d.meterId}:${d.amount}`).sort(),
      ]),
    );
    expect(drawn).toEqual({
      k1: [`${calls.id}:2`],
      k2: [`${calls.id}:2`],
      k5: [`${calls.id}:5`],
      k7: [`${calls.id}:5`, `${more.id}:3`].sort(),
    });
  });
});
