/**
 * @module
 * Which outbox events a customer hears about (ADR 1500), pure: an event becomes at most one
 * email, keyed by its occurrence so that an occurrence mails once however many events repeat it
 * (a subscription updated twice while its cancellation stays scheduled is one email).
 */
import type { StoredEvent } from '../events/stored-event.js';
import type { Subscription } from '../subscriptions/subscription.js';
import type { Adjustment } from '../transactions/adjustment.js';
import { invoiceDueAt } from '../transactions/due-dates.js';
import type { Transaction } from '../transactions/transaction.js';
import type { EmailFacts, EmailKind } from './entities.js';

/** An email an event asks for, before the customer and settings decide whether it goes. */
export interface EmailOccurrence {
  readonly kind: EmailKind;
  readonly customerId: string;
  /** Unique per account environment: the same occurrence never makes a second job. */
  readonly occurrenceKey: string;
  readonly facts: Omit<EmailFacts, 'customerName'>;
}

const NO_FACTS: Omit<EmailFacts, 'customerName'> = {
  currencyCode: null,
  amount: null,
  transactionId: null,
  invoiceNumber: null,
  subscriptionId: null,
  adjustmentId: null,
  productNames: [],
  date: null,
  payUrl: null,
};

function productNames(items: readonly { readonly product: { readonly name: string } }[]): string[] {
  return [...new Set(items.map((item) => item.product.name))];
}

function transactionOccurrence(event: StoredEvent, kind: EmailKind, transaction: Transaction): EmailOccurrence | null {
  if (transaction.customerId === null) return null;
  const totals = transaction.details.totals;
  const facts = {
    ...NO_FACTS,
    currencyCode: transaction.currencyCode,
    transactionId: transaction.id,
    invoiceNumber: transaction.invoiceNumber,
    subscriptionId: transaction.subscriptionId,
    productNames: productNames(transaction.details.lineItems),
    payUrl: transaction.checkout?.url ?? null,
  };
  switch (kind) {
    case 'receipt':
      return {
        kind,
        customerId: transaction.customerId,
        occurrenceKey: `receipt:${transaction.id}`,
        facts: { ...facts, amount: totals.grandTotal, date: event.occurredAt },
      };
    case 'invoice_issued':
      return {
        kind,
        customerId: transaction.customerId,
        occurrenceKey: `invoice_issued:${transaction.id}`,
        facts: { ...facts, amount: totals.balance, date: invoiceDueAt(transaction) },
      };
    case 'payment_failed':
      // Every failed attempt is its own occurrence: the customer is told at each one.
      return {
        kind,
        customerId: transaction.customerId,
        occurrenceKey: `payment_failed:${event.id}`,
        facts: { ...facts, amount: totals.balance, date: event.occurredAt },
      };
    default:
      return null;
  }
}

function subscriptionOccurrence(event: StoredEvent, kind: EmailKind, subscription: Subscription): EmailOccurrence {
  const facts = {
    ...NO_FACTS,
    currencyCode: subscription.currencyCode,
    subscriptionId: subscription.id,
    productNames: productNames(subscription.items),
  };
  switch (kind) {
    case 'subscription_cancel_scheduled':
      return {
        kind,
        customerId: subscription.customerId,
        occurrenceKey: `${kind}:${subscription.id}:${subscription.scheduledChange?.effectiveAt ?? ''}`,
        facts: { ...facts, date: subscription.scheduledChange?.effectiveAt ?? null },
      };
    case 'subscription_canceled':
      return {
        kind,
        customerId: subscription.customerId,
        occurrenceKey: `${kind}:${subscription.id}`,
        facts: { ...facts, date: subscription.canceledAt ?? event.occurredAt },
      };
    default:
      return {
        kind,
        customerId: subscription.customerId,
        occurrenceKey: `${kind}:${event.id}`,
        facts: { ...facts, date: (kind === 'subscription_paused' ? subscription.pausedAt : null) ?? event.occurredAt },
      };
  }
}

function adjustmentOccurrence(adjustment: Adjustment): EmailOccurrence | null {
  if (adjustment.status !== 'approved') return null;
  const kind: EmailKind | null =
    adjustment.action === 'refund' ? 'refund_issued' : adjustment.action === 'credit' ? 'credit_note_issued' : null;
  if (kind === null) return null;
  return {
    kind,
    customerId: adjustment.customerId,
    // A provider refund is created pending and approved later: its approval is the occurrence.
    occurrenceKey: `${kind}:${adjustment.id}`,
    facts: {
      ...NO_FACTS,
      currencyCode: adjustment.currencyCode,
      amount: adjustment.totals.total,
      transactionId: adjustment.transactionId,
      subscriptionId: adjustment.subscriptionId,
      adjustmentId: adjustment.id,
      date: adjustment.updatedAt,
    },
  };
}

/** The email an outbox event asks for, or null when the customer hears nothing of it. */
export function emailOccurrenceOf(event: StoredEvent): EmailOccurrence | null {
  switch (event.eventType) {
    case 'transaction.completed':
      return transactionOccurrence(event, 'receipt', event.entity as Transaction);
    case 'transaction.billed': {
      const transaction = event.entity as Transaction;
      return transaction.collectionMode === 'manual'
        ? transactionOccurrence(event, 'invoice_issued', transaction)
        : null;
    }
    case 'transaction.payment_failed':
      return transactionOccurrence(event, 'payment_failed', event.entity as Transaction);
    case 'subscription.past_due':
      return subscriptionOccurrence(event, 'subscription_past_due', event.entity as Subscription);
    case 'subscription.canceled':
      return subscriptionOccurrence(event, 'subscription_canceled', event.entity as Subscription);
    case 'subscription.paused':
      return subscriptionOccurrence(event, 'subscription_paused', event.entity as Subscription);
    case 'subscription.resumed':
      return subscriptionOccurrence(event, 'subscription_resumed', event.entity as Subscription);
    case 'subscription.updated': {
      const subscription = event.entity as Subscription;
      const change = subscription.internal?.planChange;
      // The save that changed the items wrote this event: the plan changed (ADR 1503).
      if (change && change.at === event.occurredAt && subscription.status !== 'canceled') {
        return {
          kind: 'subscription_plan_changed',
          customerId: subscription.customerId,
          // Once per change, however many `subscription.updated` events its save wrote.
          occurrenceKey: `subscription_plan_changed:${subscription.id}:${change.at}`,
          facts: {
            ...NO_FACTS,
            currencyCode: subscription.currencyCode,
            subscriptionId: subscription.id,
            productNames: productNames(subscription.items),
            date: subscription.nextBilledAt,
            billing: change.billing,
          },
        };
      }
      return subscription.scheduledChange?.action === 'cancel' && subscription.status !== 'canceled'
        ? subscriptionOccurrence(event, 'subscription_cancel_scheduled', subscription)
        : null;
    }
    case 'adjustment.created':
    case 'adjustment.updated':
      return adjustmentOccurrence(event.entity as Adjustment);
    default:
      return null;
  }
}
