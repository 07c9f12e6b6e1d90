/**
 * @module
 * Time-driven customer emails (ADR 1503): upcoming renewal, trial ending, and card expiring
 * before the next charge. No event causes them, so a due-work step writes their jobs: for each
 * account environment, on its clock (a sandbox's moves with its sandbox time control), it walks
 * the subscriptions whose next charge falls within the lead time, in next-charge order from a
 * stored watermark, a bounded batch at a time. Each reminder's occurrence key (kind, subscription,
 * the charge's instant) makes it once however often or by how many processes the step runs; the
 * watermark only keeps the walk from reading a subscription twice.
 */

import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { DueWorkKind } from '../shared/use-case-base.js';
import type { Subscription } from '../subscriptions/subscription.js';
import { getSubscriptionWithIncludes } from '../subscriptions/update-subscription.js';
import { writeEmailJob } from './email-delivery.js';
import type { EmailOccurrence } from './email-occurrences.js';
import { withEmailDefaults } from './email-settings.js';
import { DEFAULT_RENEWAL_REMINDER_DAYS, type EmailKind, type EmailSettings } from './entities.js';
import type { EmailReminderRepository, EmailReminderSlice } from './repositories.js';

const DAY_MS = 86_400_000;
/** A scope with nothing ahead is looked at again after this long: subscriptions started meanwhile. */
const RESCAN_MS = 60 * 60 * 1000;
/** Subscriptions read per batch: what bounds memory however many reminders fall due at once. */
export const REMINDER_BATCH_SIZE = 200;

type ReminderContext = Context<EmailReminderSlice>;

/** Whether a billing cycle is a year or longer: the plans renewal reminders go to by default. */
function billedYearly(subscription: Subscription): boolean {
  const { interval, frequency } = subscription.billingCycle;
  return interval === 'year' || (interval === 'month' && frequency >= 12);
}

/** The first instant a card is no longer valid: the start of the month after its expiry month (UTC). */
function cardExpiresAt(card: { readonly expiryMonth: number; readonly expiryYear: number }): string {
  return new Date(Date.UTC(card.expiryYear, card.expiryMonth, 1)).toISOString();
}

function productNames(subscription: Subscription): string[] {
  return [...new Set(subscription.items.map((item) => item.product.name))];
}

/** The reminders a subscription's next charge asks for, with its facts. */
async function remindersOf(
  context: ReminderContext,
  subscription: Subscription,
  settings: EmailSettings,
): Promise<EmailOccurrence[]> {
  const at = subscription.nextBilledAt;
  if (at === null || subscription.scheduledChange?.action === 'cancel') return [];
  const kinds: EmailKind[] = [];
  if (subscription.status === 'trialing') kinds.push('trial_ending');
  else if (subscription.status === 'active' && (settings.renewalReminders === 'all' || billedYearly(subscription))) {
    kinds.push('renewal_upcoming');
  }
  const methodId = subscription.internal.paymentMethodId;
  if (
    subscription.collectionMode === 'automatic' &&
    (subscription.status === 'active' || subscription.status === 'trialing') &&
    methodId
  ) {
    const method = await context.store.paymentMethods.findById(context.scope, methodId);
    if (method && method.internal.status === 'saved' && cardExpiresAt(method.card) <= at) kinds.push('card_expiring');
  }
  if (kinds.length === 0) return [];
  // What the next charge will be, priced as `GET /subscriptions/{id}?include=next_transaction` prices it.
  const needsAmount = kinds.some((kind) => kind !== 'card_expiring');
  const next = needsAmount
    ? (await getSubscriptionWithIncludes(context, subscription.id, ['next_transaction'])).nextTransaction
    : null;
  return kinds.map((kind) => ({
    kind,
    customerId: subscription.customerId,
    occurrenceKey: `${kind}:${subscription.id}:${at}`,
    facts: {
      currencyCode: subscription.currencyCode,
      amount: kind === 'card_expiring' ? null : (next?.details.totals.grandTotal ?? null),
      transactionId: null,
      invoiceNumber: null,
      subscriptionId: subscription.id,
      adjustmentId: null,
      productNames: productNames(subscription),
      date: at,
      payUrl: null,
    },
  }));
}

/**
 * Writes the reminders due in one account environment at its clock's now, a batch at a time;
 * returns how many subscriptions it read. Reminders of a charge already past (a sandbox jump
 * over it, a step that ran late) are not sent: only a charge still ahead is announced.
 */
export async function runEmailReminders(
  context: ReminderContext,
  ids: IdGenerator,
  wallClock: Clock,
  batchSize = REMINDER_BATCH_SIZE,
): Promise<number> {
  const now = context.clock.now();
  const nowText = toTimestamp(now);
  const settings = withEmailDefaults(await context.store.emailSettings.find(context.scope));
  const leadMs = (settings.renewalReminderDays ?? DEFAULT_RENEWAL_REMINDER_DAYS) * DAY_MS;
  const until = toTimestamp(now + leadMs);
  const reminders = context.store.emailReminders;
  const state = await reminders.find(context.scope);
  // Found due on another clock (sandbox accounts are looked up to the one furthest ahead): not yet on this one.
  if (state && state.dueAt > nowText) return 0;
  const after =
    state && state.throughAt >= nowText ? { at: state.throughAt, id: state.throughId } : { at: nowText, id: '' };
  const batch = await reminders.chargesAhead(context.scope, after, until, batchSize);
  // Everything the reminders say is read first; the write transaction then only writes, so it holds
  // the database's write lock for as short a time as it can.
  const occurrences: Awaited<ReturnType<typeof remindersOf>>[number][] = [];
  for (const subscription of batch) occurrences.push(...(await remindersOf(context, subscription, settings)));
  await context.store.transaction(async (tx) => {
    for (const occurrence of occurrences) {
      await writeEmailJob(tx, ids, context.scope, occurrence, settings, {
        eventId: null,
        createdAt: nowText,
        now: wallClock.now(),
      });
    }
    const last = batch.at(-1);
    if (batch.length === batchSize && last?.nextBilledAt) {
      // More may be due: the worker comes straight back for the next batch.
      await tx.emailReminders.save(context.scope, { throughAt: last.nextBilledAt, throughId: last.id, dueAt: nowText });
      return;
    }
    const following = await tx.emailReminders.firstChargeAfter(context.scope, until);
    const dueAt = Math.min(
      following === undefined ? Number.POSITIVE_INFINITY : Date.parse(following) - leadMs,
      now + RESCAN_MS,
    );
    await tx.emailReminders.save(context.scope, {
      throughAt: until,
      throughId: '',
      dueAt: toTimestamp(Math.max(dueAt, now + 1)),
    });
  });
  return batch.length;
}

/** Reminders as due work: the scopes whose watermark is due, each on its own clock. */
export function emailReminderWork<C extends ReminderContext>(
  store: { readonly emailReminders: EmailReminderRepository },
  ids: IdGenerator,
  wallClock: Clock,
): DueWorkKind<C> {
  return {
    findDueAccounts: (environment, until) => store.emailReminders.findDueAccounts(environment, until),
    run: (context) => runEmailReminders(context, ids, wallClock),
  };
}
