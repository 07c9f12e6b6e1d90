/**
 * @module
 * What the self-service parts of the page show, read through the SDK and formatted for the
 * viewer (ADR 1441): the customer's plans (name, price, period, next charge, scheduled change and
 * the actions each allows), the outstanding balance with pay links where the service offers a
 * checkout, refunds and credits with their credit notes, and the billing details form's values.
 * Everything is filtered again by customer after the SDK call, as the history is (ADR 0800).
 */
import { COUNTRY_CODES, formatMoney } from '@drawdown/http-kit';
import {
  type Address,
  type Adjustment,
  type Business,
  type CancellationReasonCode,
  type ChangeStatement,
  type Customer,
  DrawdownApiError,
  type PaymentMethod,
  type Price,
  type ProrationBillingMode,
  type Subscription,
  type SubscriptionWithIncludes,
} from '@drawdown/sdk';
import { dateText } from './billing-history.js';
import type { MessageKey, Translate } from './messages.js';
import type { PortalClient } from './portal-client.js';
import { formatQuantity } from './quantities.js';

/** What the host lets customers do themselves (ADR 1441). */
export interface SelfServiceOptions {
  /** Cancel at the end of the period, and undo it. Default true. */
  readonly cancel?: boolean;
  /** Pause at the end of the period, undo it, and resume a paused plan. Default false: the account allows it by turning it on. */
  readonly pause?: boolean;
  /** Switch between the active prices of the plan's product (same currency and cycle) and change the quantity. Default true. */
  readonly changePlan?: boolean;
  /** Edit the billing address, business name and tax id. Default true. */
  readonly billingDetails?: boolean;
  /**
   * How a plan change is billed (the public API's `proration_billing_mode`): prorated now unless
   * set; prices with usage allowances take `full_next_billing_period` instead of a prorated mode.
   */
  readonly changeBilling?: ProrationBillingMode;
  /**
   * Prices a customer with no plan may subscribe to, as cards, paid through the hosted checkout
   * (ADR 0812). Empty or unset: no plans are offered.
   */
  readonly subscribe?: { readonly priceIds: readonly string[] };
}

export interface ResolvedSelfService {
  readonly cancel: boolean;
  readonly pause: boolean;
  readonly changePlan: boolean;
  readonly billingDetails: boolean;
  readonly changeBilling: ProrationBillingMode;
  readonly subscribePriceIds: readonly string[];
}

export function resolveSelfService(options: SelfServiceOptions | undefined): ResolvedSelfService {
  return {
    cancel: options?.cancel ?? true,
    pause: options?.pause ?? false,
    changePlan: options?.changePlan ?? true,
    billingDetails: options?.billingDetails ?? true,
    changeBilling: options?.changeBilling ?? 'prorated_immediately',
    subscribePriceIds: [...(options?.subscribe?.priceIds ?? [])],
  };
}

/** Subscriptions the customer still has: everything but canceled. */
const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'paused'] as const;

export interface PlanView {
  readonly id: string;
  readonly status: Subscription['status'];
  readonly statusLabel: string;
  readonly name: string;
  /** "$49.00 every month" (quantity 1), or the same with the quantity beside it. */
  readonly priceText: string;
  readonly quantity: number;
  readonly periodText: string | null;
  readonly nextChargeText: string;
  readonly scheduledText: string | null;
  readonly scheduledAction: 'cancel' | 'pause' | 'resume' | null;
  /** The reason the customer gave for a scheduled cancellation, in words (ADR 0806); null for none. */
  readonly cancellationReasonText: string | null;
  readonly collectionMode: Subscription['collectionMode'];
  readonly actions: {
    readonly cancel: boolean;
    readonly keep: boolean;
    readonly pause: boolean;
    readonly keepRunning: boolean;
    readonly resume: boolean;
    readonly change: boolean;
  };
}

function cycleText(cycle: Subscription['billingCycle'], t: Translate): string {
  const one = { day: 'cycleDay', week: 'cycleWeek', month: 'cycleMonth', year: 'cycleYear' } as const;
  const many = { day: 'cycleDays', week: 'cycleWeeks', month: 'cycleMonths', year: 'cycleYears' } as const;
  const interval = cycle.interval as keyof typeof one;
  if (!(interval in one)) return `${cycle.frequency} ${cycle.interval}`;
  return cycle.frequency === 1 ? t(one[interval]) : t(many[interval], { count: cycle.frequency });
}

export async function money(
  client: PortalClient,
  amount: string,
  currencyCode: string,
  locale: string,
): Promise<string> {
  const { decimalPlaces } = await client.currencies.decimalPlaces(currencyCode);
  return formatMoney(amount, currencyCode, decimalPlaces, locale);
}

const SUBSCRIPTION_LABELS = {
  active: 'subActive',
  trialing: 'subTrialing',
  past_due: 'subPastDue',
  paused: 'subPaused',
  canceled: 'subCanceled',
} as const;

/** One plan, formatted; the next charge is the service's own preview of the next transaction. */
async function toPlanView(
  client: PortalClient,
  subscription: Subscription,
  t: Translate,
  locale: string,
  allowed: ResolvedSelfService,
): Promise<PlanView> {
  const withNext = (await client.subscriptions.get(subscription.id, {
    include: ['next_transaction'],
  })) as SubscriptionWithIncludes;
  const [item] = subscription.items;
  const names = [...new Set(subscription.items.map((entry) => entry.product?.name).filter(Boolean))];
  const unit = item ? await money(client, item.price.unitPrice.amount, subscription.currencyCode, locale) : '';
  const priceText = t('planPrice', { price: unit, cycle: cycleText(subscription.billingCycle, t) });
  const period = subscription.currentBillingPeriod;
  const nextChargeText = await nextChargeOf(client, withNext, t, locale);
  const scheduled = subscription.scheduledChange;
  const scheduledKey = { cancel: 'scheduledCancel', pause: 'scheduledPause', resume: 'scheduledResume' } as const;
  const running =
    subscription.status === 'active' || subscription.status === 'trialing' || subscription.status === 'past_due';
  const reason = scheduled?.action === 'cancel' ? await givenReason(client, subscription.id) : null;
  return {
    id: subscription.id,
    status: subscription.status,
    statusLabel: t(SUBSCRIPTION_LABELS[subscription.status]),
    name: names.join(', ') || (item?.price.name ?? item?.price.description ?? subscription.id),
    priceText,
    quantity: item?.quantity ?? 1,
    periodText: period
      ? t('periodRange', { start: dateText(period.startsAt, locale), end: dateText(period.endsAt, locale) })
      : null,
    nextChargeText,
    scheduledText: scheduled
      ? t(scheduledKey[scheduled.action], { date: dateText(scheduled.effectiveAt, locale) })
      : null,
    scheduledAction: scheduled?.action ?? null,
    cancellationReasonText: reason ? t('cancelReasonGiven', { reason: t(REASON_TEXT[reason]) }) : null,
    collectionMode: subscription.collectionMode,
    actions: {
      cancel: allowed.cancel && running && scheduled === null,
      keep: allowed.cancel && scheduled?.action === 'cancel',
      pause: allowed.pause && subscription.status === 'active' && scheduled === null,
      keepRunning: allowed.pause && scheduled?.action === 'pause',
      resume: allowed.pause && subscription.status === 'paused',
      change: allowed.changePlan && subscription.status === 'active' && scheduled === null,
    },
  };
}

/** The reasons a customer may give, in the order the cancel page lists them (ADR 0806). */
export const REASON_TEXT = {
  too_expensive: 'reasonTooExpensive',
  missing_features: 'reasonMissingFeatures',
  switched_service: 'reasonSwitchedService',
  unused: 'reasonUnused',
  technical_issues: 'reasonTechnicalIssues',
  customer_service: 'reasonCustomerService',
  other: 'reasonOther',
} as const satisfies Record<CancellationReasonCode, MessageKey>;

/** The reason stored with the subscription's cancellation; null when none, or when the service does not keep reasons. */
async function givenReason(client: PortalClient, subscriptionId: string): Promise<CancellationReasonCode | null> {
  try {
    return (await client.subscriptions.cancellationReason(subscriptionId)).reason;
  } catch (error) {
    if (error instanceof DrawdownApiError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

/**
 * The next charge as the service previews it. A scheduled pause or cancellation has none (the
 * service answers `next_transaction` null): the plan says what happens instead.
 */
async function nextChargeOf(
  client: PortalClient,
  subscription: SubscriptionWithIncludes,
  t: Translate,
  locale: string,
): Promise<string> {
  const scheduled = subscription.scheduledChange;
  if (scheduled?.action === 'cancel' || scheduled?.action === 'pause') {
    return t(scheduled.action === 'cancel' ? 'noChargeCancel' : 'noChargePause', {
      date: dateText(scheduled.effectiveAt, locale),
    });
  }
  const totals = subscription.nextTransaction?.details.totals;
  const amount = totals?.grandTotal ?? totals?.total;
  if (!subscription.nextBilledAt || amount === undefined) return t('noNextCharge');
  return t('nextChargeValue', {
    amount: await money(client, amount, subscription.currencyCode, locale),
    date: dateText(subscription.nextBilledAt, locale),
  });
}

/** The customer's plans (canceled ones left out), oldest first. */
export async function loadPlans(
  client: PortalClient,
  customerId: string,
  t: Translate,
  locale: string,
  allowed: ResolvedSelfService,
): Promise<readonly PlanView[]> {
  const subscriptions = (
    await client.subscriptions.list({ customerId: [customerId], status: [...LIVE_STATUSES], perPage: 20 }).next()
  ).filter((subscription) => subscription.customerId === customerId);
  return Promise.all(subscriptions.map((subscription) => toPlanView(client, subscription, t, locale, allowed)));
}

/** A subscription of the customer, or null when it is not theirs (the caller refuses it). */
export async function ownSubscription(
  client: PortalClient,
  customerId: string,
  subscriptionId: string,
): Promise<Subscription | null> {
  const subscription = await client.subscriptions.get(subscriptionId);
  return subscription.customerId === customerId ? subscription : null;
}

export interface PlanChoice {
  readonly priceId: string;
  readonly label: string;
  readonly minimum: number;
  readonly maximum: number;
  /** The price's name, its amount per period, and what it includes, for a plan card (ADR 0808). */
  readonly name: string;
  readonly priceText: string;
  readonly allowances: readonly string[];
}

/** Looks up a usage unit's names (the portal's cache). */
export type UnitNames = (unitId: string) => Promise<{ readonly name: string; readonly unitName: string }>;

/** A price as a plan card: its name, amount per period and allowances in the viewer's words. */
async function choiceOf(
  client: PortalClient,
  price: Price,
  t: Translate,
  locale: string,
  unitNames: UnitNames,
): Promise<PlanChoice> {
  const name = price.name ?? price.description;
  const cycle = price.billingCycle;
  const amount = await money(client, price.unitPrice.amount, price.unitPrice.currencyCode, locale);
  const priceText = cycle ? t('planPrice', { price: amount, cycle: cycleText(cycle, t) }) : amount;
  const allowances = await Promise.all(
    (price.allowances ?? []).map(async (allowance) => {
      const unit = await unitNames(allowance.usageBalanceUnitId);
      return t('allowanceIncluded', {
        amount: formatQuantity(allowance.amount, locale),
        unit: unit.unitName || unit.name,
      });
    }),
  );
  return {
    priceId: price.id,
    label: `${name} · ${priceText}`,
    minimum: price.quantity?.minimum ?? 1,
    maximum: price.quantity?.maximum ?? 100,
    name,
    priceText,
    allowances,
  };
}

/** The plans a customer with no plan may subscribe to: the host's prices that are active and recurring. */
export async function subscribeChoices(
  client: PortalClient,
  priceIds: readonly string[],
  t: Translate,
  locale: string,
  unitNames: UnitNames,
): Promise<readonly PlanChoice[]> {
  if (priceIds.length === 0) return [];
  const prices = await client.prices.list({ id: [...priceIds], status: ['active'], perPage: 50 }).next();
  const offered = priceIds
    .map((id) => prices.find((price) => price.id === id))
    .filter((price): price is Price => price !== undefined && price.billingCycle !== null);
  return Promise.all(offered.map((price) => choiceOf(client, price, t, locale, unitNames)));
}

/** The prices a plan may move to: active prices of its product in its currency and billing cycle. */
export async function planChoices(
  client: PortalClient,
  subscription: Subscription,
  t: Translate,
  locale: string,
  unitNames: UnitNames,
): Promise<readonly PlanChoice[]> {
  const [item] = subscription.items;
  if (!item) return [];
  const prices = await client.prices
    .list({ productId: [item.price.productId], status: ['active'], perPage: 50 })
    .next();
  const cycle = subscription.billingCycle;
  const fits = (price: Price) =>
    price.unitPrice.currencyCode === subscription.currencyCode &&
    price.billingCycle !== null &&
    price.billingCycle.interval === cycle.interval &&
    price.billingCycle.frequency === cycle.frequency;
  const candidates = prices.filter(fits);
  if (!candidates.some((price) => price.id === item.price.id)) candidates.unshift(item.price);
  return Promise.all(candidates.map((price) => choiceOf(client, price, t, locale, unitNames)));
}

/**
 * How a customer's change is billed: as the host chose (`changeBilling`, prorated now unless set).
 * The service refuses the prorated modes on prices with usage allowances, so such a change is
 * billed in full with the next bill instead (ADR 1441).
 */
export function prorationFor(
  current: Subscription,
  next: Price | undefined,
  chosen: ProrationBillingMode = 'prorated_immediately',
): ProrationBillingMode {
  const allowances =
    current.items.some((item) => item.price.allowances?.length > 0) || (next?.allowances?.length ?? 0) > 0;
  return allowances && chosen.startsWith('prorated') ? 'full_next_billing_period' : chosen;
}

/** The change as the first item's price and quantity; every other item stays as it is. */
export function changedItems(subscription: Subscription, priceId: string, quantity: number) {
  return subscription.items.map((item, index) =>
    index === 0 ? { priceId, quantity } : { priceId: item.price.id, quantity: item.quantity },
  );
}

export interface PreviewLineView {
  readonly label: string;
  readonly periodText: string;
  /** Signed and formatted: a credit shows with its minus sign. */
  readonly amount: string;
  readonly kind: 'charge' | 'credit' | 'tax';
}

/** A change in words, every figure read from the service's preview through `changeStatement` (ADR 1448). */
export interface PreviewView {
  /** How this billing mode bills the change. */
  readonly modeText: string;
  /** One sentence per sum of money that moves; none for money that does not. */
  readonly statements: readonly { readonly part: string; readonly text: string }[];
  readonly lines: readonly PreviewLineView[];
  readonly nextText: string;
}

const MODE_TEXT = {
  prorated_immediately: 'modeProratedImmediately',
  full_immediately: 'modeFullImmediately',
  prorated_next_billing_period: 'modeProratedNext',
  full_next_billing_period: 'modeFullNext',
  do_not_bill: 'modeDoNotBill',
} as const;

/** A tax rate as a percentage in the viewer's locale: `"0.08875"` → "8.875%". */
export function rateText(rate: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }).format(rate as `${number}`);
}

/**
 * The statement of a change in the viewer's words: the mode's own sentence, then what is charged
 * now, what the credit balance pays or receives, what the next bill gains or loses, the lines and
 * tax per rate, and the next charge after the change.
 */
export async function describeChange(
  client: PortalClient,
  statement: ChangeStatement,
  currentPeriod: Subscription['currentBillingPeriod'],
  t: Translate,
  locale: string,
): Promise<PreviewView> {
  const format = (value: bigint) => money(client, value.toString(), statement.currencyCode, locale);
  const span = statement.lines.find((line) => line.period)?.period ?? currentPeriod;
  const modeText = t(MODE_TEXT[statement.mode], {
    start: span ? dateText(span.startsAt, locale) : '',
    end: span ? dateText(span.endsAt, locale) : '',
  });
  const statements: { part: string; text: string }[] = [];
  if (statement.chargedNow > 0n) {
    const key = statement.collectionMode === 'manual' ? 'stmtInvoicedNow' : 'stmtChargedNow';
    statements.push({ part: 'charged-now', text: t(key, { amount: await format(statement.chargedNow) }) });
  }
  if (statement.creditApplied > 0n) {
    statements.push({
      part: 'credit-applied',
      text: t('stmtCreditApplied', { amount: await format(statement.creditApplied) }),
    });
  }
  if (statement.creditedNow > 0n) {
    statements.push({
      part: 'credited-now',
      text: t('stmtCreditedNow', { amount: await format(statement.creditedNow) }),
    });
  }
  if (statement.nextBillChange !== 0n && statement.nextBill) {
    const added = statement.nextBillChange > 0n;
    statements.push({
      part: added ? 'added-next' : 'taken-off-next',
      text: t(added ? 'stmtAddedNext' : 'stmtTakenOffNext', {
        amount: await format(added ? statement.nextBillChange : -statement.nextBillChange),
        date: dateText(statement.nextBill.at, locale),
      }),
    });
  }
  if (statements.length === 0) statements.push({ part: 'nothing-now', text: t('nothingNow') });
  const lines: PreviewLineView[] = [];
  for (const line of statement.lines) {
    const values = { product: line.productName ?? line.priceId, quantity: line.quantity };
    lines.push({
      label: t(line.kind === 'credit' ? 'lineCredit' : 'lineCharge', values),
      periodText: line.period
        ? t('periodRange', { start: dateText(line.period.startsAt, locale), end: dateText(line.period.endsAt, locale) })
        : t('lineWholePeriod'),
      amount: await format(line.kind === 'credit' ? -line.amount : line.amount),
      kind: line.kind,
    });
  }
  for (const tax of statement.taxes) {
    lines.push({
      label: t('taxAt', { rate: rateText(tax.rate, locale) }),
      periodText: '',
      amount: await format(tax.amount),
      kind: 'tax',
    });
  }
  const nextText = statement.nextBill
    ? t('nextChargeValue', {
        amount: await format(statement.nextBill.total),
        date: dateText(statement.nextBill.at, locale),
      })
    : t('noNextCharge');
  return { modeText, statements, lines, nextText };
}

export interface BalanceView {
  /** One line per currency: "€90.00 due". */
  readonly lines: readonly string[];
  readonly count: number;
  readonly pastDue: number;
}

/** What the customer still owes: billed and past-due transactions' balances, per currency. */
export async function loadBalance(
  client: PortalClient,
  customerId: string,
  t: Translate,
  locale: string,
): Promise<BalanceView> {
  const open = (
    await client.transactions
      .list({ customerId: [customerId], status: ['billed', 'past_due'], perPage: 200, orderBy: 'id[DESC]' })
      .next()
  ).filter((transaction) => transaction.customerId === customerId);
  const sums = new Map<string, bigint>();
  for (const transaction of open) {
    const totals = transaction.details.totals;
    const due = BigInt(totals.balance ?? totals.grandTotal);
    sums.set(transaction.currencyCode, (sums.get(transaction.currencyCode) ?? 0n) + due);
  }
  const lines = await Promise.all(
    [...sums.entries()]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(async ([currency, sum]) =>
        t('balanceDue', { amount: await money(client, sum.toString(), currency, locale) }),
      ),
  );
  return {
    lines,
    count: open.length,
    pastDue: open.filter((transaction) => transaction.status === 'past_due').length,
  };
}

export interface AdjustmentView {
  readonly id: string;
  readonly kindText: string;
  readonly action: Adjustment['action'];
  readonly date: string;
  readonly dateText: string;
  readonly statusText: string;
  readonly total: string;
  readonly forText: string | null;
  readonly hasCreditNote: boolean;
}

const ADJUSTMENT_STATUS = {
  approved: 'adjApproved',
  pending_approval: 'adjPending',
  rejected: 'adjRejected',
  reversed: 'adjReversed',
} as const;

/** The customer's refunds and credits, newest first (the 50 latest). */
export async function loadAdjustments(
  client: PortalClient,
  customerId: string,
  t: Translate,
  locale: string,
): Promise<readonly AdjustmentView[]> {
  const adjustments = (await client.adjustments.list({ customerId: [customerId], perPage: 50 }).next())
    .filter((adjustment) => adjustment.customerId === customerId)
    .sort((left, right) => right.id.localeCompare(left.id));
  const numbers = new Map<string, string | null>();
  for (const transactionId of new Set(adjustments.map((adjustment) => adjustment.transactionId)).values()) {
    const transaction = await client.transactions.get(transactionId);
    numbers.set(transactionId, transaction.customerId === customerId ? (transaction.invoiceNumber ?? null) : null);
  }
  return Promise.all(
    adjustments.map(async (adjustment) => {
      const number = numbers.get(adjustment.transactionId) ?? null;
      const status = adjustment.status as keyof typeof ADJUSTMENT_STATUS;
      return {
        id: adjustment.id,
        action: adjustment.action,
        kindText: t(adjustment.action === 'refund' ? 'refund' : 'credit'),
        date: adjustment.createdAt,
        dateText: dateText(adjustment.createdAt, locale),
        statusText: status in ADJUSTMENT_STATUS ? t(ADJUSTMENT_STATUS[status]) : adjustment.status,
        total: await money(client, adjustment.totals.total ?? '0', adjustment.currencyCode, locale),
        forText: number ? t('adjustmentFor', { number }) : null,
        hasCreditNote: adjustment.status === 'approved' && number !== null,
      };
    }),
  );
}

export interface BillingDetails {
  readonly addressId: string | null;
  readonly businessId: string | null;
  readonly firstLine: string;
  readonly secondLine: string;
  readonly city: string;
  readonly postalCode: string;
  readonly region: string;
  readonly countryCode: string;
  readonly businessName: string;
  readonly taxIdentifier: string;
  /** The customer's own name and email (ADR 0809). */
  readonly name: string;
  readonly email: string;
}

/** The address the customer's plan is billed to (else their first active one) and their first active business. */
export async function loadBillingDetails(
  client: PortalClient,
  customerId: string,
  preferredAddressId: string | null,
): Promise<BillingDetails> {
  const [listedAddresses, listedBusinesses, customer] = await Promise.all([
    client.addresses.list(customerId, { status: ['active'], perPage: 50 }).next(),
    client.businesses.list(customerId, { status: ['active'], perPage: 50 }).next(),
    client.customers.get(customerId),
  ]);
  const addresses: Address[] = listedAddresses.filter((address) => address.customerId === customerId);
  const address = addresses.find((entry) => entry.id === preferredAddressId) ?? addresses[0];
  const businesses: Business[] = listedBusinesses.filter((business) => business.customerId === customerId);
  const [business] = businesses;
  return {
    name: customer.name ?? '',
    email: customer.email ?? '',
    addressId: address?.id ?? null,
    businessId: business?.id ?? null,
    firstLine: address?.firstLine ?? '',
    secondLine: address?.secondLine ?? '',
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
    region: address?.region ?? '',
    countryCode: address?.countryCode ?? '',
    businessName: business?.name ?? '',
    taxIdentifier: business?.taxIdentifier ?? '',
  };
}

export type DetailsField = 'firstLine' | 'city' | 'postalCode' | 'countryCode' | 'businessName' | 'email';
type DetailsError = 'fieldRequired' | 'countryInvalid' | 'taxIdNeedsBusiness' | 'emailInvalid';

/** What a details form sends: the name and email only when the form has those fields (absent: unchanged). */
export type DetailsValues = Omit<BillingDetails, 'addressId' | 'businessId' | 'name' | 'email'> & {
  readonly name?: string | undefined;
  readonly email?: string | undefined;
};

/** Reads the form; the errors name fields (message keys), nothing is saved while there are any. */
export function readDetailsForm(form: Readonly<Record<string, string>>): {
  values: DetailsValues;
  errors: Partial<Record<DetailsField, DetailsError>>;
} {
  const field = (name: string, max = 200) => (form[name] ?? '').trim().slice(0, max);
  const values = {
    firstLine: field('first_line'),
    secondLine: field('second_line'),
    city: field('city'),
    postalCode: field('postal_code', 20),
    region: field('region'),
    countryCode: field('country_code', 10).toUpperCase(),
    businessName: field('business_name'),
    taxIdentifier: field('tax_identifier', 50),
    name: form.name === undefined ? undefined : field('name'),
    email: form.email === undefined ? undefined : field('email', 254),
  };
  const errors: Partial<Record<DetailsField, DetailsError>> = {};
  if (values.firstLine === '') errors.firstLine = 'fieldRequired';
  if (values.city === '') errors.city = 'fieldRequired';
  if (values.postalCode === '') errors.postalCode = 'fieldRequired';
  if (!COUNTRY_CODES.includes(values.countryCode)) errors.countryCode = 'countryInvalid';
  // The form's own check; the service judges the address it stores.
  if (values.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) errors.email = 'emailInvalid';
  if (values.taxIdentifier !== '' && values.businessName === '') errors.businessName = 'taxIdNeedsBusiness';
  return { values, errors };
}

/** Saves the details: updates the address and business in place, or creates them. */
export async function saveBillingDetails(
  client: PortalClient,
  customerId: string,
  current: BillingDetails,
  values: DetailsValues,
): Promise<void> {
  const address = {
    firstLine: values.firstLine,
    secondLine: values.secondLine === '' ? null : values.secondLine,
    city: values.city,
    postalCode: values.postalCode,
    region: values.region === '' ? null : values.region,
    countryCode: values.countryCode,
  };
  const customer = {
    ...(values.name === undefined || values.name === current.name
      ? {}
      : { name: values.name === '' ? null : values.name }),
    ...(values.email === undefined || values.email === current.email ? {} : { email: values.email }),
  };
  if (Object.keys(customer).length > 0) await client.customers.update(customerId, customer);
  if (current.addressId) await client.addresses.update(customerId, current.addressId, address);
  else await client.addresses.create(customerId, address);
  if (values.businessName === '') {
    if (current.businessId) await client.businesses.update(customerId, current.businessId, { status: 'archived' });
    return;
  }
  const business = {
    name: values.businessName,
    taxIdentifier: values.taxIdentifier === '' ? null : values.taxIdentifier,
  };
  if (current.businessId) await client.businesses.update(customerId, current.businessId, business);
  else await client.businesses.create(customerId, business);
}

export interface CardView {
  /** "Visa ending in 4242". */
  readonly text: string;
  /** "Expires 12/2030", the month and year in the viewer's locale. */
  readonly expiresText: string;
}

const BRANDS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  american_express: 'American Express',
  discover: 'Discover',
  diners_club: 'Diners Club',
  jcb: 'JCB',
  maestro: 'Maestro',
  union_pay: 'UnionPay',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};

/**
 * The card on file: the customer's most recently saved card (the one a new subscription and a
 * card update save), brand, last four and expiry (ADR 0807); null when none is saved.
 */
export async function loadCard(
  client: PortalClient,
  customerId: string,
  t: Translate,
  locale: string,
): Promise<CardView | null> {
  const methods: PaymentMethod[] = (await client.paymentMethods.list(customerId, { perPage: 200 }).next()).filter(
    (method) => method.customerId === customerId && method.card !== null,
  );
  const newest = methods.sort((left, right) => right.savedAt.localeCompare(left.savedAt))[0];
  const card = newest?.card;
  if (!card) return null;
  const brand = BRANDS[card.type] ?? t('cardGeneric');
  const expiry = new Intl.DateTimeFormat(locale, { month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(card.expiryYear, card.expiryMonth - 1, 1),
  );
  return {
    text: t('cardOnFile', { brand, last4: card.last4 }),
    expiresText: t('cardExpires', { date: expiry }),
  };
}

/** The seller the portal names (ADR 0810): the legal name from seller details; null when unset or unreadable. */
export async function loadSellerName(client: PortalClient): Promise<string | null> {
  const details = await client.sellerDetails.get();
  const name = details.legalName?.trim();
  return name ? name : null;
}

/** The customer's name and email, for the billing details form. */
export async function loadCustomer(client: PortalClient, customerId: string): Promise<Customer> {
  return client.customers.get(customerId);
}
