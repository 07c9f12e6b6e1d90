/**
 * @module
 * Discount and discount group use cases (ADR 1100): create, update (archive is an update of
 * status), get and list; and the redemption bookkeeping transactions run in their own database
 * transaction: a redemption is counted under a row lock when a discount is attached, and given
 * back when the transaction is canceled or the discount removed before billing.
 */
import type { CatalogueStatus, CustomData } from '../catalogue/entities.js';
import { usable } from '../catalogue/references.js';
import { recordEvent } from '../events/record-event.js';
import { isSupportedCurrency } from '../money/currencies.js';
import { BillingError } from '../shared/billing-error.js';
import { DuplicateKeyError } from '../shared/collection.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { FilterCondition, ListFilter, ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import { FLAT_AMOUNT_PATTERN, PERCENTAGE_PATTERN } from './apply-discount.js';
import {
  type Discount,
  type DiscountGroup,
  type DiscountMode,
  type DiscountStatus,
  type DiscountType,
  discountAt,
  statusAfterUse,
} from './discount.js';
import type { DiscountColumn, DiscountGroupColumn, DiscountSlice } from './repositories.js';

/** The caller's active discount group `id`. */
function usableDiscountGroup(
  repositories: Pick<DiscountSlice, 'discountGroups'>,
  scope: Scope,
  id: string,
): Promise<DiscountGroup> {
  return usable(repositories.discountGroups, scope, id, 'discount_group_not_found', 'Discount group');
}

export interface DiscountTermsInput {
  readonly description: string;
  readonly type: DiscountType;
  readonly amount: string;
  readonly recur?: boolean | undefined;
  readonly maximumRecurringIntervals?: number | null | undefined;
  readonly restrictTo?: readonly string[] | null | undefined;
  readonly customData?: CustomData | undefined;
}

export interface CreateDiscountInput extends DiscountTermsInput {
  readonly enabledForCheckout?: boolean | undefined;
  readonly code?: string | null | undefined;
  readonly mode?: DiscountMode | undefined;
  readonly currencyCode?: string | null | undefined;
  readonly usageLimit?: number | null | undefined;
  readonly expiresAt?: string | null | undefined;
  readonly discountGroupId?: string | null | undefined;
}

export interface UpdateDiscountInput {
  readonly status?: CatalogueStatus | undefined;
  readonly description?: string | undefined;
  readonly enabledForCheckout?: boolean | undefined;
  readonly code?: string | null | undefined;
  readonly mode?: DiscountMode | undefined;
  readonly type?: DiscountType | undefined;
  readonly amount?: string | undefined;
  readonly currencyCode?: string | null | undefined;
  readonly recur?: boolean | undefined;
  readonly maximumRecurringIntervals?: number | null | undefined;
  readonly usageLimit?: number | null | undefined;
  readonly restrictTo?: readonly string[] | null | undefined;
  readonly expiresAt?: string | null | undefined;
  readonly customData?: CustomData | undefined;
  readonly discountGroupId?: string | null | undefined;
}

/** Letters and digits, up to 32: the reference's rule for codes (compared case-insensitively). */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/** Checks the rules that tie fields together; every refusal names its field. */
function validateTerms(discount: Discount, now: string, expiryChanged: boolean): void {
  if (discount.type === 'percentage') {
    if (!PERCENTAGE_PATTERN.test(discount.amount) || /^0(\.0{1,2})?$/.test(discount.amount)) {
      throw BillingError.invalidField('amount', 'must be a percentage from 0.01 to 100 with at most two decimals');
    }
    // Documented as required only for flat discounts: a percentage discount keeps the currency
    // it was given (the Python SDK always sends one) and applies in every currency (ADR 1470).
    if (discount.currencyCode !== null && !isSupportedCurrency(discount.currencyCode)) {
      throw BillingError.invalidField(
        'currency_code',
        'must be a supported currency or null for a percentage discount',
      );
    }
  } else {
    if (!FLAT_AMOUNT_PATTERN.test(discount.amount)) {
      throw BillingError.invalidField('amount', 'must be a positive integer string in the lowest currency unit');
    }
    if (discount.currencyCode === null || !isSupportedCurrency(discount.currencyCode)) {
      throw BillingError.invalidField('currency_code', `must be a supported currency for a ${discount.type} discount`);
    }
  }
  if (!discount.recur && discount.maximumRecurringIntervals !== null) {
    throw BillingError.invalidField('maximum_recurring_intervals', 'needs recur: true');
  }
  if (discount.code !== null && !DISCOUNT_CODE_PATTERN.test(discount.code)) {
    throw BillingError.invalidField('code', 'must be 1 to 32 letters and digits');
  }
  if (expiryChanged && discount.expiresAt !== null && discount.expiresAt <= now) {
    throw BillingError.invalidField('expires_at', 'must be in the future');
  }
  if (discount.usageLimit !== null && discount.usageLimit < discount.timesUsed) {
    throw new BillingError(
      'discount_usage_limit_less_than_times_used',
      `Usage limit is less than times already used (times used: ${discount.timesUsed}, usage limit: ${discount.usageLimit}).`,
    );
  }
}

/** Every id of `restrictTo` must name a price or product of the scope. */
async function validateRestrictTo(context: Context<DiscountSlice>, tx: DiscountSlice, ids: readonly string[] | null) {
  for (const id of ids ?? []) {
    if (id.startsWith('pri_')) {
      if (!(await tx.prices.findById(context.scope, id))) {
        throw new BillingError('price_not_found', `restrict_to: price ${id} not found.`);
      }
    } else if (!(await tx.products.findById(context.scope, id))) {
      throw new BillingError('product_not_found', `restrict_to: product ${id} not found.`);
    }
  }
}

async function validateGroup(context: Context<DiscountSlice>, tx: DiscountSlice, groupId: string | null) {
  if (groupId === null) return;
  await usableDiscountGroup(tx, context.scope, groupId);
}

async function writeDiscount(
  context: Context<DiscountSlice>,
  tx: DiscountSlice,
  discount: Discount,
  write: 'insert' | 'update',
): Promise<void> {
  try {
    await tx.discounts[write](context.scope, discount);
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      throw new BillingError('discount_code_conflict', `Discount code ${discount.code} is used by another discount.`);
    }
    throw error;
  }
}

/** A new discount, before validation, with every default of the reference applied. */
function newDiscount(context: Context<DiscountSlice>, input: CreateDiscountInput, now: string): Discount {
  const recur = input.recur ?? false;
  return {
    id: context.ids.newId('dsc'),
    status: 'active',
    description: input.description,
    enabledForCheckout: input.enabledForCheckout ?? false,
    code: input.code ?? null,
    mode: input.mode ?? 'standard',
    type: input.type,
    amount: input.amount,
    currencyCode: input.currencyCode ?? null,
    recur,
    maximumRecurringIntervals: input.maximumRecurringIntervals ?? null,
    usageLimit: input.usageLimit ?? null,
    restrictTo: input.restrictTo ?? null,
    expiresAt: input.expiresAt ?? null,
    customData: input.customData ?? null,
    timesUsed: 0,
    discountGroupId: input.discountGroupId ?? null,
    importMeta: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Creates a discount inside `tx` (the caller's database transaction); `discount.created`.
 * @throws BillingError `invalid_field`, `discount_code_conflict`, `price_not_found`,
 *   `product_not_found`, `discount_group_not_found`, `entity_archived`.
 */
export async function insertDiscount(
  context: Context<DiscountSlice>,
  tx: DiscountSlice,
  input: CreateDiscountInput,
  timesUsed = 0,
): Promise<Discount> {
  const now = nowTimestamp(context);
  const created = newDiscount(context, input, now);
  const discount: Discount = { ...created, timesUsed, status: statusAfterUse({ ...created, timesUsed }) };
  validateTerms(discount, now, true);
  await validateRestrictTo(context, tx, discount.restrictTo);
  await validateGroup(context, tx, discount.discountGroupId);
  await writeDiscount(context, tx, discount, 'insert');
  await recordEvent(context, tx, 'discount.created', 'discount', discount);
  return discount;
}

export function createDiscount(context: Context<DiscountSlice>, input: CreateDiscountInput): Promise<Discount> {
  return context.store.transaction((tx) => insertDiscount(context, tx, input));
}

export async function updateDiscount(
  context: Context<DiscountSlice>,
  id: string,
  input: UpdateDiscountInput,
): Promise<Discount> {
  return context.store.transaction(async (tx) => {
    const current = await tx.discounts.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Discount', id);
    const now = nowTimestamp(context);
    const changed = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    const merged: Discount = { ...current, ...changed, status: current.status, updatedAt: now };
    // A type change to percentage drops a currency the caller did not restate.
    const typeDropsCurrency = input.type === 'percentage' && input.currencyCode === undefined;
    const recurDropsIntervals = input.recur === false && input.maximumRecurringIntervals === undefined;
    const next: Discount = {
      ...merged,
      currencyCode: typeDropsCurrency ? null : merged.currencyCode,
      maximumRecurringIntervals: recurDropsIntervals ? null : merged.maximumRecurringIntervals,
    };
    const archived = input.status === 'archived' || (input.status === undefined && current.status === 'archived');
    const withStatus: Discount = {
      ...next,
      status: archived ? 'archived' : statusAfterUse({ ...next, status: 'active' }),
    };
    validateTerms(withStatus, now, input.expiresAt !== undefined);
    if (input.restrictTo !== undefined) await validateRestrictTo(context, tx, withStatus.restrictTo);
    if (input.discountGroupId !== undefined) await validateGroup(context, tx, withStatus.discountGroupId);
    await writeDiscount(context, tx, withStatus, 'update');
    const presented = discountAt(withStatus, now);
    await recordEvent(context, tx, 'discount.updated', 'discount', presented);
    return presented;
  });
}

export async function getDiscount(context: Context<DiscountSlice>, id: string): Promise<Discount> {
  const discount = await context.store.discounts.findById(context.scope, id);
  if (!discount) throw BillingError.notFound('Discount', id);
  return discountAt(discount, nowTimestamp(context));
}

/** The stored-column conditions that select discounts showing `status` at `now`. */
function statusFilter(status: DiscountStatus, now: string): ListFilter<DiscountColumn> {
  const stored = (value: string): FilterCondition[] => [{ op: 'eq', value }];
  switch (status) {
    case 'active':
      return { status: stored('active'), expires_key: [{ op: 'gt', value: now }] };
    case 'expired':
      return { status: stored('active'), expires_key: [{ op: 'lte', value: now }] };
    default:
      return { status: stored(status) };
  }
}

/** What a list without `status` shows: every discount but the archived ones, as the public API lists them (issue 36). */
export const DEFAULT_LISTED_DISCOUNT_STATUSES: readonly DiscountStatus[] = ['active', 'expired', 'used'];

/**
 * Lists discounts; `statuses` selects by the status shown now (`expired` is derived, ADR 1100).
 * Without it, archived discounts are left out: ask for `archived` to see them.
 */
export async function listDiscounts(
  context: Context<DiscountSlice>,
  query: ListQuery<DiscountColumn>,
  statuses: readonly DiscountStatus[] = DEFAULT_LISTED_DISCOUNT_STATUSES,
): Promise<Page<Discount>> {
  const now = nowTimestamp(context);
  const anyOf = statuses.map((status) => statusFilter(status, now));
  const page = await context.store.discounts.list(context.scope, { ...query, anyOf });
  return { ...page, items: page.items.map((discount) => discountAt(discount, now)) };
}

/**
 * Counts one redemption of a catalogue discount for a transaction, under a row lock so that
 * concurrent redemptions never pass `usage_limit`.
 * @throws BillingError `transaction_discount_not_found`, `entity_archived`, `discount_expired`,
 *   `discount_usage_limit_exceeded`.
 */
export async function redeemDiscount(
  context: Context<DiscountSlice>,
  tx: DiscountSlice,
  id: string,
): Promise<Discount> {
  const current = await tx.discounts.findByIdForUpdate(context.scope, id);
  const now = nowTimestamp(context);
  requireRedeemable(current, id, now);
  const used = { ...current, timesUsed: current.timesUsed + 1, updatedAt: now };
  const next: Discount = { ...used, status: statusAfterUse(used) };
  await tx.discounts.update(context.scope, next);
  await recordEvent(context, tx, 'discount.updated', 'discount', next);
  return next;
}

/** Refuses a discount that a transaction could not redeem at `now`. */
function requireRedeemable(current: Discount | undefined, id: string, now: string): asserts current is Discount {
  if (!current) throw new BillingError('transaction_discount_not_found', `Discount ${id} not found.`);
  const status = discountAt(current, now).status;
  if (status === 'archived') throw new BillingError('entity_archived', `Discount ${id} is archived.`);
  if (status === 'expired')
    throw new BillingError('discount_expired', `Discount ${id} expired at ${current.expiresAt}.`);
  if (status === 'used') {
    throw new BillingError('discount_usage_limit_exceeded', `Discount ${id} has reached its usage limit.`);
  }
}

/** A catalogue discount a transaction could redeem now, counting nothing: what a preview applies. */
export async function previewDiscount(
  context: Context<DiscountSlice>,
  store: DiscountSlice,
  id: string,
): Promise<Discount> {
  const current = await store.discounts.findById(context.scope, id);
  requireRedeemable(current, id, nowTimestamp(context));
  return current;
}

/** A non-catalogue discount as a transaction would create it, validated and written nowhere: what a preview applies. */
export async function previewCustomDiscount(
  context: Context<DiscountSlice>,
  store: DiscountSlice,
  input: CreateDiscountInput,
): Promise<Discount> {
  const now = nowTimestamp(context);
  const discount = newDiscount(context, input, now);
  validateTerms(discount, now, true);
  await validateRestrictTo(context, store, discount.restrictTo);
  return discount;
}

/** Gives back one redemption (the transaction was canceled or its discount removed before billing). */
export async function releaseDiscount(context: Context<DiscountSlice>, tx: DiscountSlice, id: string): Promise<void> {
  const current = await tx.discounts.findByIdForUpdate(context.scope, id);
  if (!current || current.timesUsed === 0) return;
  const now = nowTimestamp(context);
  const released = { ...current, timesUsed: current.timesUsed - 1, updatedAt: now };
  const next: Discount = { ...released, status: statusAfterUse(released) };
  await tx.discounts.update(context.scope, next);
  await recordEvent(context, tx, 'discount.updated', 'discount', discountAt(next, now));
}

export interface UpdateDiscountGroupInput {
  readonly name?: string | undefined;
  readonly status?: CatalogueStatus | undefined;
}

export async function createDiscountGroup(
  context: Context<DiscountSlice>,
  input: { readonly name: string },
): Promise<DiscountGroup> {
  const now = nowTimestamp(context);
  const group: DiscountGroup = {
    id: context.ids.newId('dsg'),
    name: input.name,
    status: 'active',
    importMeta: null,
    createdAt: now,
    updatedAt: now,
  };
  return context.store.transaction(async (tx) => {
    await tx.discountGroups.insert(context.scope, group);
    await recordEvent(context, tx, 'discount_group.created', 'discount_group', group);
    return group;
  });
}

export async function updateDiscountGroup(
  context: Context<DiscountSlice>,
  id: string,
  input: UpdateDiscountGroupInput,
): Promise<DiscountGroup> {
  return context.store.transaction(async (tx) => {
    const current = await tx.discountGroups.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Discount group', id);
    const next: DiscountGroup = {
      ...current,
      name: input.name ?? current.name,
      status: input.status ?? current.status,
      updatedAt: nowTimestamp(context),
    };
    await tx.discountGroups.update(context.scope, next);
    await recordEvent(context, tx, 'discount_group.updated', 'discount_group', next);
    return next;
  });
}

export async function getDiscountGroup(context: Context<DiscountSlice>, id: string): Promise<DiscountGroup> {
  const group = await context.store.discountGroups.findById(context.scope, id);
  if (!group) throw BillingError.notFound('Discount group', id);
  return group;
}

export function listDiscountGroups(
  context: Context<DiscountSlice>,
  query: ListQuery<DiscountGroupColumn>,
): Promise<Page<DiscountGroup>> {
  return context.store.discountGroups.list(context.scope, query);
}
