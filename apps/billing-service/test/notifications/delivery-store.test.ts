/**
 * The delivery cycle's storage rules, driven through the core's use cases with a hand-moved
 * clock: events fan out once, a claim holds an attempt until its lease runs out, a stale claim
 * cannot record, and two stores on one PostgreSQL database never take the same work.
 */
import {
  type Account,
  claimDueNotifications,
  createAccount,
  createNotificationSetting,
  createProduct,
  type DeliveryClaim,
  type DeliveryDependencies,
  type DeliveryOutcome,
  deleteNotificationSetting,
  fanOutEvents,
  getNotification,
  type NotificationSettingContext,
  type OperationContext,
  type RetrySchedule,
  recordDeliveryAttempt,
  replayNotification,
  type Store,
  updateNotificationSetting,
} from '@drawdown/billing-core';
import { openStore } from '@drawdown/billing-store';
import {
  createTestStorage,
  ENGINES,
  type Engine,
  fixedClock,
  storeConfigOf,
  type TestStorage,
} from '@drawdown/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keySecrets } from '../../src/infrastructure/key-secrets.js';
import { createUlidIds } from '../../src/infrastructure/ulid-ids.js';

const SCHEDULE: RetrySchedule = { maxAttempts: 3, initialDelayMs: 1_000, maxDelayMs: 10_000, minimumDelayMs: 1_000 };
const OK: DeliveryOutcome = { kind: 'response', statusCode: 200, contentType: 'text/plain', body: 'ok' };
const DOWN: DeliveryOutcome = { kind: 'failure', reason: 'Connection refused.' };

/** A fresh database per test, an early-access account, and the use cases on a hand-moved clock. */
function useFixture(engine: Engine) {
  const ids = createUlidIds();
  let storage: TestStorage;
  let store: Store;
  let account: Account;
  const clock = fixedClock(0);

  const openOnSameDatabase = () => openStore(storeConfigOf(storage));

  beforeEach(async () => {
    storage = await createTestStorage(engine);
    store = await openOnSameDatabase();
    clock.set('2026-05-01T10:00:00.000Z');
    account = await createAccount({ store, ids, clock, secrets: keySecrets }, { name: 'A', earlyAccess: true });
  });
  afterEach(async () => {
    await store.close();
    await storage.dispose();
  });

  const delivery = (on: Store = store): DeliveryDependencies => ({ store: on, ids, wallClock: clock });
  const context = (): NotificationSettingContext & OperationContext => ({
    store,
    ids,
    clock,
    scope: { accountId: account.id, environment: 'live' },
    account,
    secrets: keySecrets,
    destinations: { check: async () => ({ allowed: true }) },
  });
  return {
    get store() {
      return store;
    },
    openOnSameDatabase,
    delivery,
    context,
    advance: clock.advance,
    destination: (events: string[], extra: { active?: boolean } = {}) =>
      createNotificationSetting(context(), {
        description: 'receiver',
        type: 'url',
        destination: 'https://receiver.example/hook',
        subscribedEvents: events,
        ...extra,
      }),
    product: (name: string) => createProduct(context(), { name, taxCategory: 'standard' }),
    claim: (limit = 10, on: Store = store, leaseMs = 60_000) =>
      claimDueNotifications(delivery(on), {
        limit,
        leaseMs,
        claimToken: ids.newId('ntflog'),
        inFlight: new Map(),
        maxPerDestination: 100,
      }),
    record: (held: DeliveryClaim, outcome: DeliveryOutcome) =>
      recordDeliveryAttempt(delivery(), held, outcome, {
        schedule: SCHEDULE,
        times: { startedAt: clock.now(), endedAt: clock.now() },
        random: 0,
      }),
  };
}

describe.each(ENGINES)('%s: notification delivery storage', (engine) => {
  const f = useFixture(engine);

  it('fans an event out once, to each active destination subscribed to its type', async () => {
    const products = await f.destination(['product.created', 'product.updated']);
    await f.destination(['customer.created']);
    await f.destination(['product.created'], { active: false });
    await f.product('One');

    expect(await fanOutEvents(f.delivery(), 100)).toBe(1);
    expect(await fanOutEvents(f.delivery(), 100)).toBe(0);
    const claims = await f.claim();
    expect(claims.map((held) => held.setting.id)).toEqual([products.id]);
    expect(claims[0]?.notification).toMatchObject({
      status: 'not_attempted',
      origin: 'event',
      type: 'product.created',
    });
    expect(claims[0]?.event.eventType).toBe('product.created');
  });

  it('holds a claimed attempt until its lease runs out, then lets another worker take it', async () => {
    await f.destination(['product.created']);
    await f.product('Leased');
    await fanOutEvents(f.delivery(), 100);
    const [first] = await f.claim(10, f.store, 30_000);
    expect(first).toBeDefined();
    expect(await f.claim()).toEqual([]);

    f.advance(30_001);
    const [second] = await f.claim();
    expect(second?.notification.id).toBe(first?.notification.id);
    if (!first || !second) return;
    expect(await f.record(first, OK)).toBe(false);
    expect(await f.record(second, DOWN)).toBe(true);
    const { notification } = await getNotification(f.context(), second.notification.id);
    expect(notification).toMatchObject({ status: 'needs_retry', timesAttempted: 1 });
  });

  it('retries on the schedule and fails the notification after the last attempt', async () => {
    await f.destination(['product.created']);
    await f.product('Flaky');
    await fanOutEvents(f.delivery(), 100);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const [held] = await f.claim();
      if (!held) throw new Error(`attempt ${attempt} was not due`);
      expect(await f.record(held, DOWN)).toBe(true);
      expect(await f.claim()).toEqual([]);
      f.advance(1_000);
    }
    const scope = f.context().scope;
    const page = await f.store.notifications.list(scope, { filter: {}, perPage: 10, direction: 'desc' });
    const failed = page.items[0]?.notification;
    expect(failed).toMatchObject({ status: 'failed', timesAttempted: 3, retryAt: null });
    const logs = await f.store.notifications.listLogs(scope, failed?.id ?? '', {
      filter: {},
      perPage: 10,
      direction: 'asc',
    });
    expect(logs.items.map((log) => [log.responseCode, log.responseBody])).toEqual([
      [0, 'Connection refused.'],
      [0, 'Connection refused.'],
      [0, 'Connection refused.'],
    ]);
  });

  it('holds the notifications of an inactive destination until it is active again', async () => {
    const setting = await f.destination(['product.created']);
    await f.product('Paused');
    await fanOutEvents(f.delivery(), 100);
    await updateNotificationSetting(f.context(), setting.id, { active: false });
    expect(await f.claim()).toEqual([]);
    await updateNotificationSetting(f.context(), setting.id, { active: true });
    expect(await f.claim()).toHaveLength(1);
  });

  it('fails the undelivered notifications of a deleted destination, and cannot replay them', async () => {
    const setting = await f.destination(['product.created']);
    await f.product('Orphan');
    await fanOutEvents(f.delivery(), 100);
    const [held] = await f.claim();
    if (!held) throw new Error('nothing claimed');
    await deleteNotificationSetting(f.context(), setting.id);
    expect(await f.record(held, OK)).toBe(false);
    const { notification } = await getNotification(f.context(), held.notification.id);
    expect(notification.status).toBe('failed');
    await expect(replayNotification(f.context(), held.notification.id)).rejects.toMatchObject({
      code: 'notification_setting_not_found',
    });
  });

  it('replays a notification as a new one, due at once, and stamps the original', async () => {
    await f.destination(['product.created']);
    await f.product('Again');
    await fanOutEvents(f.delivery(), 100);
    const [held] = await f.claim();
    if (!held) throw new Error('nothing claimed');
    await f.record(held, OK);
    const { notificationId } = await replayNotification(f.context(), held.notification.id);
    expect(notificationId).not.toBe(held.notification.id);
    const [replayed] = await f.claim();
    expect(replayed?.notification).toMatchObject({ id: notificationId, origin: 'replay', status: 'not_attempted' });
    expect(replayed?.event.id).toBe(held.event.id);
    const original = await getNotification(f.context(), held.notification.id);
    expect(original.notification.replayedAt).not.toBeNull();
    expect(original.notification.status).toBe('delivered');
  });
});

// Racing stores is a PostgreSQL question: SQLite has one writer for the whole file, and two
// SQLite stores in one test process would block each other on that lock (separate processes
// queue on it instead, which is what makes SQLite's claim-by-update safe).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))('%s: two stores on one database', (engine) => {
  const f = useFixture(engine);

  it('fans out each event exactly once when both race', async () => {
    await f.destination(['product.created']);
    for (let index = 0; index < 30; index += 1) await f.product(`P${index}`);
    const second = await f.openOnSameDatabase();
    try {
      await Promise.all([
        fanOutEvents(f.delivery(), 7),
        fanOutEvents(f.delivery(second), 7),
        fanOutEvents(f.delivery(), 7),
        fanOutEvents(f.delivery(second), 7),
        fanOutEvents(f.delivery(), 7),
      ]);
      while ((await fanOutEvents(f.delivery(second), 7)) > 0);
      const claims = await f.claim(100);
      expect(claims).toHaveLength(30);
      expect(new Set(claims.map((held) => held.event.id)).size).toBe(30);
    } finally {
      await second.close();
    }
  });

  it('never gives both the same attempt', async () => {
    await f.destination(['product.created']);
    for (let index = 0; index < 20; index += 1) await f.product(`C${index}`);
    await fanOutEvents(f.delivery(), 100);
    const second = await f.openOnSameDatabase();
    try {
      const [mine, theirs] = await Promise.all([f.claim(20), f.claim(20, second)]);
      const all = [...mine, ...theirs].map((held) => held.notification.id);
      expect(new Set(all).size).toBe(all.length);
      expect(all).toHaveLength(20);
    } finally {
      await second.close();
    }
  });
});
