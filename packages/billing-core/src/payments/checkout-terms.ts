/**
 * @module
 * The recurring terms a checkout states before the customer pays (issue 35; ADR 1114): "then
 * $58.80 per month from Dec 28". The amount is the subscription's first renewal, priced by the
 * same builder as `POST /transactions/preview` (`buildTransaction`) for the transaction's
 * recurring items, address, business and tax settings: full prices (a trial ends before it),
 * no one-time items, and the checkout's discount only when it carries on to the subscription
 * (ADR 1105). The date is when the subscription started by paying now would first renew: one
 * billing cycle from now, or the end of the trial.
 */
import type { Address, Business, Customer, Duration, Product } from '../catalogue/entities.js';
import type { Discount } from '../discounts/discount.js';
import type { IdGenerator } from '../shared/ids.js';
import { addCycles } from '../subscriptions/billing-period.js';
import { discountFromCheckout } from '../subscriptions/subscription-discount.js';
import type { TaxIdCheckOutcome } from '../tax/location-tax.js';
import { buildTransaction } from '../transactions/build-transaction.js';
import type { TaxSettings } from '../transactions/entities.js';
import type { AmountTotals, Transaction } from '../transactions/transaction.js';

/** What a checkout's subscription charges after this payment, and from when. */
export interface RecurringTerms {
  /** The first renewal's totals, tax included as it will be charged, in lowest units. */
  readonly totals: AmountTotals;
  readonly currencyCode: string;
  /** The subscription's billing cycle (its first recurring item's, as `startSubscription` takes it). */
  readonly billingCycle: Duration;
  /** When the first renewal is charged: one cycle from now, or the trial's end. */
  readonly startsAt: string;
  /** Whether the first renewal ends a trial (the checkout then charges nothing for these items). */
  readonly afterTrial: boolean;
}

export interface RecurringTermsInput {
  readonly transaction: Transaction;
  readonly customer: Customer | null;
  readonly address: Address | null;
  readonly business: Business | null;
  readonly taxIdCheck?: TaxIdCheckOutcome | null | undefined;
  /** The transaction's catalogue discount, if any. */
  readonly discount?: Discount | undefined;
}

export interface RecurringTermsEnvironment {
  readonly ids: IdGenerator;
  /** When the payment would be made (the subscription would start): the environment's now. */
  readonly now: string;
  readonly taxSettings: TaxSettings;
}

/**
 * The recurring terms of a checkout that starts a subscription, or null when it starts none (no
 * recurring item, or the transaction belongs to a subscription already).
 */
export function recurringTerms(
  input: RecurringTermsInput,
  environment: RecurringTermsEnvironment,
): RecurringTerms | null {
  const { transaction } = input;
  if (transaction.subscriptionId !== null) return null;
  const recurring = transaction.items
    .map((item, index) => ({ item, product: transaction.details.lineItems[index]?.product }))
    .filter(
      (entry): entry is { item: (typeof transaction.items)[number]; product: Product } =>
        entry.item.price.billingCycle !== null && entry.product !== undefined,
    );
  const first = recurring[0];
  const billingCycle = first?.item.price.billingCycle;
  if (!first || !billingCycle) return null;
  const trial = first.item.price.trialPeriod;
  const startsAt = addCycles(environment.now, trial ?? billingCycle, 1);
  // A discount carries on to the subscription only when it recurs past the first period (ADR 1105).
  const carried = input.discount && discountFromCheckout(input.discount, environment.now, billingCycle) !== null;
  const renewal = buildTransaction(
    {
      items: recurring.map(({ item, product }) => ({ price: item.price, product, quantity: item.quantity })),
      customer: input.customer,
      address: input.address,
      business: input.business,
      taxIdCheck: input.taxIdCheck,
      currencyCode: transaction.currencyCode,
      collectionMode: transaction.collectionMode,
      origin: 'subscription_recurring',
      startsTrials: false,
      discount: carried ? input.discount : null,
    },
    { ids: environment.ids, now: startsAt, taxSettings: environment.taxSettings },
  );
  const { subtotal, discount, tax, total } = renewal.details.totals;
  return {
    totals: { subtotal, discount, tax, total },
    currencyCode: renewal.currencyCode,
    billingCycle,
    startsAt,
    afterTrial: trial !== null,
  };
}
