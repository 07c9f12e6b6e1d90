/**
 * @module
 * Wire forms that are more than the entity with its keys snake-cased.
 */
import {
  balanceTotals,
  type EntityPresenter,
  type PaymentMethod,
  type Report,
  type StoredEvent,
  type Subscription,
  type SubscriptionUpdatePreview,
  type Transaction,
  type UsageBalance,
  type WireData,
} from '@drawdown/billing-core';
import { managementUrls } from '../rendering/portal-session-links.js';
import { toSnakeCase } from './wire-case.js';

/** Kinds whose documents carry `import_meta` (always null: nothing is imported). */
const IMPORTABLE_KINDS: ReadonlySet<string> = new Set([
  'product',
  'price',
  'customer',
  'address',
  'business',
  'discount',
]);

/**
 * The entity with `importMeta` null where it was stored before it had one (event data and
 * snapshots inside subscriptions written earlier; stored documents are filled by migration 0247).
 */
function withImportMeta<Entity extends object>(entity: Entity): Entity {
  return 'importMeta' in entity ? entity : { ...entity, importMeta: null };
}

/**
 * A subscription without the fields only the service uses. With the environment's portal
 * address, `management_urls` point at the portal's pages for it (ADR 1440).
 */
export function presentSubscription(subscription: Subscription, portalUrl?: string): unknown {
  const { internal: _internal, discount, ...wire } = subscription;
  // `intervals_used` is the service's count of discounted periods (ADR 1105), not a wire field.
  return {
    ...wire,
    items: wire.items.map((item) => ({
      ...item,
      price: withImportMeta(item.price),
      product: withImportMeta(item.product),
    })),
    importMeta: null,
    ...(portalUrl === undefined ? {} : { managementUrls: managementUrls(portalUrl, subscription) }),
    discount: discount === null ? null : { id: discount.id, startsAt: discount.startsAt, endsAt: discount.endsAt },
  };
}

/** `GET /subscriptions/{id}` with `include`: the asked-for projections beside the subscription. */
export function presentSubscriptionWithIncludes(
  view: {
    subscription: Subscription;
    nextTransaction?: Transaction | null;
    recurringTransaction?: Transaction | null;
  },
  portalUrl?: string,
): unknown {
  return {
    ...(presentSubscription(view.subscription, portalUrl) as Record<string, unknown>),
    ...(view.nextTransaction === undefined ? {} : { nextTransaction: presentPreviewTransaction(view.nextTransaction) }),
    ...(view.recurringTransaction === undefined
      ? {}
      : { recurringTransactionDetails: presentPreviewDetails(view.recurringTransaction) }),
  };
}

/** A transaction as a preview shows it: its billing period and details, without ids of things not stored. */
function presentPreviewTransaction(transaction: Transaction | null) {
  if (!transaction) return null;
  return {
    billingPeriod: transaction.billingPeriod,
    details: presentPreviewDetails(transaction),
    adjustments: [],
  };
}

function presentPreviewDetails(transaction: Transaction | null) {
  if (!transaction) return null;
  const { taxRatesUsed, totals, lineItems } = transaction.details;
  return {
    taxRatesUsed,
    totals,
    lineItems: lineItems.map(({ id: _id, ...line }) => line),
  };
}

/**
 * `update_summary` of a preview: the change's credit (its negative lines) and charge (its
 * positive lines), totals with tax, and the net result.
 */
function presentUpdateSummary(change: Transaction | null) {
  if (!change) return null;
  let credit = 0n;
  let charge = 0n;
  for (const line of change.details.lineItems) {
    const total = BigInt(line.totals.total);
    if (total < 0n) credit -= total;
    else charge += total;
  }
  const net = charge - credit;
  const currencyCode = change.currencyCode;
  return {
    credit: { amount: credit.toString(), currencyCode },
    charge: { amount: charge.toString(), currencyCode },
    result: { action: net < 0n ? 'credit' : 'charge', amount: (net < 0n ? -net : net).toString(), currencyCode },
  };
}

/** `PATCH /subscriptions/{id}/preview`: the subscription as it would be, and what it would bill. */
export function presentSubscriptionPreview(preview: SubscriptionUpdatePreview, portalUrl?: string): unknown {
  const { id: _id, ...subscription } = presentSubscription(preview.subscription, portalUrl) as Record<string, unknown>;
  return {
    ...subscription,
    immediateTransaction: presentPreviewTransaction(preview.immediateTransaction),
    nextTransaction: presentPreviewTransaction(preview.nextTransaction),
    recurringTransactionDetails: presentPreviewDetails(preview.recurringTransaction),
    updateSummary: presentUpdateSummary(preview.changeTransaction),
  };
}

/**
 * A usage balance as the seed shows it: `used`, `remaining` and `overage`, each with a total
 * and a breakdown whose `subscription` part always equals the total (top-ups do not exist).
 */
export function presentUsageBalance(balance: UsageBalance): unknown {
  const totals = balanceTotals(balance.state);
  return {
    id: balance.id,
    customerId: balance.customerId,
    usageBalanceUnitId: balance.usageBalanceUnitId,
    balance: {
      used: { total: totals.used, breakdown: { subscription: totals.used } },
      remaining: { total: totals.remaining, breakdown: { subscription: totals.remaining } },
      overage: {
        total: totals.overage,
        startedAt: balance.state.overageStartedAt,
        breakdown: { subscription: totals.overage },
      },
    },
    createdAt: balance.createdAt,
    updatedAt: balance.updatedAt,
  };
}

/** A report without the scheduler's `dueAt`: the same in answers and in event data. */
export function presentReport(report: Report): unknown {
  return {
    id: report.id,
    status: report.status,
    rows: report.rows,
    type: report.type,
    filters: report.filters,
    expiresAt: report.expiresAt,
    createdAt: report.createdAt,
    updatedAt: report.updatedAt,
  };
}

/**
 * A saved payment method as `payment_method.*` events carry it: the public API's payment method
 * notification, which names the customer, address, type and origin but no card details (the
 * entity `GET /customers/{id}/payment-methods` answers has them). A deletion adds why.
 */
export function presentPaymentMethodEvent(
  method: Omit<PaymentMethod, 'internal'> & { readonly deletionReason?: string },
): unknown {
  return {
    id: method.id,
    customerId: method.customerId,
    addressId: method.addressId,
    type: method.type,
    origin: method.origin,
    savedAt: method.savedAt,
    updatedAt: method.updatedAt,
    ...(method.deletionReason === undefined ? {} : { deletionReason: method.deletionReason }),
  };
}

/** The wire form of an event's entity, by kind. */
export function presentEntity(kind: StoredEvent['entityKind'], entity: unknown, portalUrl?: string): unknown {
  switch (kind) {
    case 'subscription':
      return presentSubscription(entity as Subscription, portalUrl);
    case 'usage_balance':
      return presentUsageBalance(entity as UsageBalance);
    case 'report':
      return presentReport(entity as Report);
    case 'payment_method':
      return presentPaymentMethodEvent(entity as PaymentMethod);
    default:
      return IMPORTABLE_KINDS.has(kind) && typeof entity === 'object' && entity !== null
        ? withImportMeta(entity)
        : entity;
  }
}

/** The event envelope of `GET /events` and webhook bodies: `event_id`, not `id`. */
export function presentEvent(event: StoredEvent, portalUrl?: string): unknown {
  return {
    eventId: event.id,
    eventType: event.eventType,
    occurredAt: event.occurredAt,
    // A webhook body sets its own notification's id here.
    notificationId: event.notificationId ?? null,
    data: presentEntity(event.entityKind, event.entity, portalUrl),
  };
}

/** The wire form of entities, for the core's simulations (which copy real entities into payloads). */
export const wirePresenter: EntityPresenter = {
  present: (kind, entity) => toSnakeCase(presentEntity(kind, entity)) as WireData,
};
