/**
 * Notifications' use cases against a plain in-memory object of their slice (ADR 0922): saving
 * destinations through the destination policy, and fanning outbox events out to the destinations
 * subscribed to them, with no database. The engine tests (`apps/billing-service/test/notifications`)
 * run the same use cases through SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import {
  fixedClock,
  LIVE,
  MemoryCollection,
  MemoryEventLog,
  memoryBase,
  page,
  storeOf,
} from '../../test/memory-store.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import type { Notification, NotificationLog, NotificationSetting } from './entities.js';
import type { DestinationPolicy } from './notification-settings.js';
import { notificationUseCases } from './notification-use-cases.js';
import type {
  DeliveryClaim,
  DueNotification,
  EventToFanOut,
  NotificationColumn,
  NotificationLogColumn,
  NotificationRepository,
  NotificationSettingColumn,
  NotificationSlice,
  NotificationWithEvent,
} from './repositories.js';

const sameScope = (a: Scope, b: Scope) => a.accountId === b.accountId && a.environment === b.environment;

/** Notifications over the in-memory event log: an event is to fan out until marked. */
class MemoryNotifications implements NotificationRepository {
  readonly rows: { scope: Scope; notification: Notification; dueAt: number | null; claimToken: string | null }[] = [];
  readonly logs: { scope: Scope; notificationId: string; log: NotificationLog }[] = [];
  private readonly fannedOut = new Set<string>();

  constructor(private readonly events: MemoryEventLog) {}

  private eventOf(scope: Scope, id: string): StoredEvent {
    const found = this.events.appended.find((row) => sameScope(row.scope, scope) && row.event.id === id);
    if (!found) throw new Error(`no event ${id}`);
    return found.event;
  }
  private withEvent = (row: { scope: Scope; notification: Notification }): NotificationWithEvent => ({
    notification: row.notification,
    event: this.eventOf(row.scope, row.notification.eventId),
  });

  async insert(scope: Scope, notification: Notification, dueAt: number) {
    this.rows.push({ scope, notification, dueAt, claimToken: null });
  }
  async markReplayed(scope: Scope, id: string, replayedAt: string) {
    for (const row of this.rows) {
      if (sameScope(row.scope, scope) && row.notification.id === id)
        row.notification = { ...row.notification, replayedAt };
    }
  }
  async findById(scope: Scope, id: string) {
    const row = this.rows.find((candidate) => sameScope(candidate.scope, scope) && candidate.notification.id === id);
    return row && this.withEvent(row);
  }
  async list(scope: Scope, query: ListQuery<NotificationColumn>): Promise<Page<NotificationWithEvent>> {
    const rows = this.rows.filter((row) => sameScope(row.scope, scope)).map((row) => row.notification);
    const listed = page(rows, query, (notification, column) => {
      switch (column) {
        case 'id':
          return notification.id;
        case 'status':
          return notification.status;
        case 'notification_setting_id':
          return notification.notificationSettingId;
        default:
          return null;
      }
    });
    return { ...listed, items: listed.items.map((notification) => this.withEvent({ scope, notification })) };
  }
  async listLogs(scope: Scope, notificationId: string, query: ListQuery<NotificationLogColumn>) {
    const rows = this.logs
      .filter((row) => sameScope(row.scope, scope) && row.notificationId === notificationId)
      .map((row) => row.log);
    return page(rows, query, (log) => log.id);
  }
  async failUndelivered(scope: Scope, notificationSettingId: string) {
    let failed = 0;
    for (const row of this.rows) {
      const { notification } = row;
      if (!sameScope(row.scope, scope) || notification.notificationSettingId !== notificationSettingId) continue;
      if (notification.status === 'delivered' || notification.status === 'failed') continue;
      row.notification = { ...notification, status: 'failed', retryAt: null };
      row.dueAt = null;
      failed += 1;
    }
    return failed;
  }
  async hasEventsToFanOut() {
    return this.events.appended.some((row) => !this.fannedOut.has(row.event.id));
  }
  async hasDueNotifications(now: number) {
    return this.rows.some((row) => row.dueAt !== null && row.dueAt <= now);
  }
  async eventsToFanOut(limit: number): Promise<readonly EventToFanOut[]> {
    return this.events.appended
      .map((row, sequence) => ({ scope: row.scope, event: row.event, sequence }))
      .filter((row) => !this.fannedOut.has(row.event.id))
      .slice(0, limit);
  }
  async markFannedOut(events: readonly EventToFanOut[]) {
    for (const { event } of events) this.fannedOut.add(event.id);
  }
  async dueNotifications(input: { now: number; limit: number; excludedSettingIds: readonly string[] }) {
    return this.rows
      .filter((row) => row.dueAt !== null && row.dueAt <= input.now)
      .filter((row) => !input.excludedSettingIds.includes(row.notification.notificationSettingId))
      .slice(0, input.limit)
      .map(
        (row): DueNotification => ({
          scope: row.scope,
          id: row.notification.id,
          notificationSettingId: row.notification.notificationSettingId,
        }),
      );
  }
  async claim(): Promise<readonly DeliveryClaim[]> {
    throw new Error('delivery is not exercised by these tests');
  }
  async recordAttempt(): Promise<boolean> {
    throw new Error('delivery is not exercised by these tests');
  }
}

function notifications(allowed = true) {
  const events = new MemoryEventLog();
  const settings = new MemoryCollection<NotificationSetting, NotificationSettingColumn>({
    id: (s) => s.id,
    active: (s) => String(s.active),
    traffic_source: (s) => s.trafficSource,
  });
  const memory = new MemoryNotifications(events);
  const slice: NotificationSlice = { notificationSettings: settings, notifications: memory, events };
  const checked: string[] = [];
  const webhookDestinations: DestinationPolicy = {
    async check(destination) {
      checked.push(destination.href);
      return allowed ? { allowed: true } : { allowed: false, reason: 'it resolves to a private address' };
    },
  };
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  const useCases = notificationUseCases(memoryBase(storeOf(slice), clock), {
    secrets: { generateSecret: () => 'S'.repeat(40) },
    webhookDestinations,
  });
  return { useCases, events, settings, memory, checked };
}

const destination = (subscribedEvents: string[], active = true) => ({
  description: 'receiver',
  type: 'url',
  destination: 'https://receiver.example/hook',
  subscribedEvents,
  active,
});

describe('notification use cases on an in-memory slice', () => {
  it('saves a destination the policy allows, and refuses one it does not', async () => {
    const allowing = notifications(true);
    const saved = await allowing.useCases.createNotificationSetting(LIVE, destination(['product.created']));
    expect(saved).toMatchObject({ active: true, trafficSource: 'platform', subscribedEvents: ['product.created'] });
    expect(allowing.checked).toEqual(['https://receiver.example/hook']);
    expect((await allowing.useCases.getNotificationSetting(LIVE, saved.id)).id).toBe(saved.id);

    const refusing = notifications(false);
    await expect(
      refusing.useCases.createNotificationSetting(LIVE, destination(['product.created'])),
    ).rejects.toMatchObject({
      code: 'notification_destination_not_allowed',
    });
    expect(refusing.settings.inScope(LIVE.scope)).toEqual([]);
  });

  it('fans each event out once, to the active destinations subscribed to its type', async () => {
    const { useCases, events, memory } = notifications();
    const products = await useCases.createNotificationSetting(LIVE, destination(['product.created']));
    await useCases.createNotificationSetting(LIVE, destination(['price.created']));
    await useCases.createNotificationSetting(LIVE, destination(['product.created'], false));
    const event = (id: string, eventType: 'product.created' | 'price.created'): StoredEvent => ({
      id,
      eventType,
      occurredAt: '2026-03-01T09:00:00.000Z',
      entityKind: eventType === 'product.created' ? 'product' : 'price',
      entity: { id: `${id}-entity` },
    });
    await events.append(LIVE.scope, event('evt_1', 'product.created'));
    await events.append(LIVE.scope, event('evt_2', 'product.created'));

    expect(await useCases.fanOutEvents(10)).toBe(2);
    expect(memory.rows.map((row) => [row.notification.eventId, row.notification.notificationSettingId])).toEqual([
      ['evt_1', products.id],
      ['evt_2', products.id],
    ]);
    expect(memory.rows.map((row) => row.notification.status)).toEqual(['not_attempted', 'not_attempted']);
    expect(await useCases.fanOutEvents(10)).toBe(0);
    expect(memory.rows).toHaveLength(2);

    const listed = await useCases.listNotifications(LIVE, { filter: {}, perPage: 10, direction: 'asc' });
    expect(listed.items.map((item) => item.event.id)).toEqual(['evt_1', 'evt_2']);
  });
});
