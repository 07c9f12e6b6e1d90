/**
 * @module
 * The delivery cycle, storage side: outbox events fan out into notifications (one per active
 * destination subscribed to the type), due notifications are claimed for one attempt, and each
 * attempt's result is recorded. The HTTP request itself and its signature belong to the
 * service; this module decides who gets what, when, and what an attempt's result means.
 *
 * Delivery runs on the wall clock, never a sandbox clock: receivers check the signature's
 * timestamp against real time, and retries wait real time (ADR 0505).
 */
import type { StoredEvent } from '../events/stored-event.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { StoreOf } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Scope } from '../shared/scope.js';
import { storableCopy } from '../shared/storable-text.js';
import type { DeliveryOutcome, Notification, NotificationLog, NotificationSetting } from './entities.js';
import type { DeliveryClaim, DueNotification, NotificationSlice } from './repositories.js';
import { type AttemptTimes, afterAttempt, type RetrySchedule } from './retry-policy.js';

export interface DeliveryDependencies {
  readonly store: StoreOf<NotificationSlice>;
  readonly ids: IdGenerator;
  readonly wallClock: Clock;
}

const SETTINGS_PAGE = 200;

async function activeSettings(tx: NotificationSlice, scope: Scope): Promise<NotificationSetting[]> {
  const settings: NotificationSetting[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await tx.notificationSettings.list(scope, {
      filter: { active: [{ op: 'eq', value: 'true' }] },
      after,
      perPage: SETTINGS_PAGE,
      direction: 'asc',
    });
    settings.push(...page.items);
    const last = page.items.at(-1);
    if (!page.hasMore || !last) return settings;
    after = last.id;
  }
}

/**
 * Whether a destination receives an event. Every event this service emits is platform
 * traffic (there are no simulations), so `simulation`-only destinations receive none (ADR 0502).
 */
export function receivesEvent(setting: NotificationSetting, event: StoredEvent): boolean {
  return setting.active && setting.trafficSource !== 'simulation' && setting.subscribedEvents.includes(event.eventType);
}

/**
 * Turns up to `limit` outbox events into notifications and marks them fanned out, in one
 * transaction, so an event fans out exactly once however many workers run. Returns how many
 * events it took.
 */
export async function fanOutEvents(dependencies: DeliveryDependencies, limit: number): Promise<number> {
  if (!(await dependencies.store.notifications.hasEventsToFanOut())) return 0;
  return dependencies.store.transaction(async (tx) => {
    const events = await tx.notifications.eventsToFanOut(limit);
    if (events.length === 0) return 0;
    const now = dependencies.wallClock.now();
    const settingsByScope = new Map<string, readonly NotificationSetting[]>();
    for (const { scope, event } of events) {
      const key = `${scope.accountId} ${scope.environment}`;
      let settings = settingsByScope.get(key);
      if (!settings) {
        settings = await activeSettings(tx, scope);
        settingsByScope.set(key, settings);
      }
      for (const setting of settings) {
        if (!receivesEvent(setting, event)) continue;
        const notification: Notification = {
          id: dependencies.ids.newId('ntf'),
          type: event.eventType,
          status: 'not_attempted',
          eventId: event.id,
          occurredAt: event.occurredAt,
          deliveredAt: null,
          replayedAt: null,
          origin: 'event',
          lastAttemptAt: null,
          retryAt: null,
          timesAttempted: 0,
          notificationSettingId: setting.id,
          replayOf: null,
        };
        await tx.notifications.insert(scope, notification, now);
      }
    }
    await tx.notifications.markFannedOut(events);
    return events.length;
  });
}

export interface ClaimInput {
  /** At most this many claims. */
  readonly limit: number;
  /** How long a claim holds a notification before another worker may take it again. */
  readonly leaseMs: number;
  readonly claimToken: string;
  /** Attempts this worker has in flight per destination id. */
  readonly inFlight: ReadonlyMap<string, number>;
  /** No destination gets more attempts in flight than this from one worker. */
  readonly maxPerDestination: number;
}

// A claim looks further down the due list than it takes, so that one destination's backlog
// cannot hide the others' work.
const SCAN_FACTOR = 4;

/**
 * Picks, oldest first, the due notifications a worker may start now without any destination
 * going over its share. Pure; exported for its tests.
 */
export function chooseClaims(
  due: readonly DueNotification[],
  limit: number,
  inFlight: ReadonlyMap<string, number>,
  maxPerDestination: number,
): DueNotification[] {
  const taken = new Map(inFlight);
  const chosen: DueNotification[] = [];
  for (const candidate of due) {
    if (chosen.length >= limit) break;
    const count = taken.get(candidate.notificationSettingId) ?? 0;
    if (count >= maxPerDestination) continue;
    taken.set(candidate.notificationSettingId, count + 1);
    chosen.push(candidate);
  }
  return chosen;
}

/** Claims due notifications for one attempt each; no two workers hold the same attempt. */
export async function claimDueNotifications(
  dependencies: DeliveryDependencies,
  input: ClaimInput,
): Promise<readonly DeliveryClaim[]> {
  if (input.limit <= 0) return [];
  const excludedSettingIds = [...input.inFlight]
    .filter(([, count]) => count >= input.maxPerDestination)
    .map(([settingId]) => settingId);
  if (!(await dependencies.store.notifications.hasDueNotifications(dependencies.wallClock.now()))) return [];
  return dependencies.store.transaction(async (tx) => {
    const now = dependencies.wallClock.now();
    const due = await tx.notifications.dueNotifications({
      now,
      limit: input.limit * SCAN_FACTOR,
      excludedSettingIds,
    });
    const chosen = chooseClaims(due, input.limit, input.inFlight, input.maxPerDestination);
    if (chosen.length === 0) return [];
    return tx.notifications.claim(chosen, now + input.leaseMs, input.claimToken);
  });
}

/** One finished attempt to record, with what decides its next state. */
export interface FinishedAttempt {
  readonly claim: DeliveryClaim;
  readonly outcome: DeliveryOutcome;
  readonly schedule: RetrySchedule;
  readonly times: AttemptTimes;
  /** In [0, 1): the jitter of the retry, if one is due. */
  readonly random: number;
}

function logOf(dependencies: DeliveryDependencies, attempt: FinishedAttempt): NotificationLog {
  const { outcome } = attempt;
  return {
    id: dependencies.ids.newId('ntflog'),
    notificationId: attempt.claim.notification.id,
    responseCode: outcome.kind === 'response' ? outcome.statusCode : 0,
    responseContentType: outcome.kind === 'response' ? outcome.contentType : null,
    // What the receiver answered is kept as it came, but for what no engine can store (ADR 0901).
    responseBody: storableCopy(outcome.kind === 'response' ? outcome.body : outcome.reason),
    attemptedAt: toTimestamp(attempt.times.startedAt),
  };
}

/**
 * Records finished attempts in one transaction (attempts that end together share one commit):
 * each notification's next state (delivered, retry at, or failed) and its log row. For each
 * attempt, false when its claim had expired and another worker holds the notification; such an
 * attempt writes nothing.
 */
export async function recordDeliveryAttempts(
  dependencies: DeliveryDependencies,
  attempts: readonly FinishedAttempt[],
): Promise<boolean[]> {
  if (attempts.length === 0) return [];
  const prepared = attempts.map((attempt) => ({
    attempt,
    result: afterAttempt(attempt.claim.notification, attempt.outcome, attempt.schedule, attempt.times, attempt.random),
    log: logOf(dependencies, attempt),
  }));
  return dependencies.store.transaction(async (tx) => {
    const recorded: boolean[] = [];
    for (const { attempt, result, log } of prepared) {
      recorded.push(await tx.notifications.recordAttempt(attempt.claim, result.notification, result.dueAt, log));
    }
    return recorded;
  });
}

/** Records one attempt; see `recordDeliveryAttempts`. */
export async function recordDeliveryAttempt(
  dependencies: DeliveryDependencies,
  claim: DeliveryClaim,
  outcome: DeliveryOutcome,
  input: { readonly schedule: RetrySchedule; readonly times: AttemptTimes; readonly random: number },
): Promise<boolean> {
  const [recorded] = await recordDeliveryAttempts(dependencies, [{ claim, outcome, ...input }]);
  return recorded ?? false;
}
