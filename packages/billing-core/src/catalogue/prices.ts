/**
 * @module
 * Prices say how much a product costs and how often. A recurring price without a trial may
 * carry allowances: amounts of usage balance units granted each billing period. An update's
 * allowances array replaces the previous one in full.
 */

import { recordEvent } from '../events/record-event.js';
import { isSupportedCurrency } from '../money/currencies.js';
import { ALLOWANCE_AMOUNT_PATTERN, MINOR_UNIT_AMOUNT_PATTERN } from '../money/decimal-patterns.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { requireDecimal } from './catalogue-rules.js';
import type {
  Allowance,
  CatalogueStatus,
  CatalogueType,
  CustomData,
  Duration,
  Money,
  Price,
  TaxMode,
  TrialPeriod,
  UnitPriceOverride,
} from './entities.js';
import { usableProduct, usableUsageBalanceUnit } from './references.js';
import type { CatalogueSlice, PriceColumn } from './repositories.js';

export const MAX_ALLOWANCES_PER_PRICE = 20;
export const DEFAULT_QUANTITY = { minimum: 1, maximum: 100 } as const;
export const MAX_QUANTITY = 999_999_999;

export interface CreatePriceInput {
  readonly productId: string;
  readonly description: string;
  readonly unitPrice: Money;
  readonly name?: string | null | undefined;
  readonly type?: CatalogueType | undefined;
  readonly billingCycle?: Duration | null | undefined;
  readonly trialPeriod?: TrialPeriod | null | undefined;
  readonly taxMode?: TaxMode | undefined;
  readonly unitPriceOverrides?: readonly UnitPriceOverride[] | undefined;
  readonly quantity?: { readonly minimum: number; readonly maximum: number } | undefined;
  readonly allowances?: readonly Allowance[] | undefined;
  readonly customData?: CustomData | undefined;
}

/** A recurring price whose trial asks for no payment method: a cardless trial (ADR 1010). */
export function isCardlessTrialPrice(price: Pick<Price, 'billingCycle' | 'trialPeriod'>): boolean {
  return price.billingCycle !== null && price.trialPeriod?.requiresPaymentMethod === false;
}

/** A trial as stored: `requires_payment_method` defaults to true, as in the public API. */
function storedTrial(trial: TrialPeriod | null | undefined): TrialPeriod | null {
  if (!trial) return null;
  return {
    interval: trial.interval,
    frequency: trial.frequency,
    requiresPaymentMethod: trial.requiresPaymentMethod ?? true,
  };
}

type Optional<T> = { readonly [Key in keyof T]?: T[Key] | undefined };

export interface UpdatePriceInput extends Optional<Omit<CreatePriceInput, 'productId'>> {
  readonly status?: CatalogueStatus | undefined;
}

function validateMoney(field: string, money: Money): void {
  if (!MINOR_UNIT_AMOUNT_PATTERN.test(money.amount)) {
    throw BillingError.invalidField(
      `${field}.amount`,
      'must be a non-negative integer string in the lowest currency unit',
    );
  }
  if (!isSupportedCurrency(money.currencyCode)) {
    throw BillingError.invalidField(`${field}.currency_code`, 'is not a supported currency');
  }
}

function validateQuantity(quantity: Price['quantity']): void {
  const { minimum, maximum } = quantity;
  if (minimum < 1 || maximum < minimum || maximum > MAX_QUANTITY) {
    throw new BillingError(
      'price_quantity_range_invalid',
      `quantity.minimum must be at least 1 and no greater than quantity.maximum, which is at most ${MAX_QUANTITY}.`,
      [{ field: 'quantity', message: 'is not a valid range' }],
    );
  }
}

/** The seed's allowance rules, checked against the price the allowances would end up on. */
async function validateAllowances(
  context: Context<CatalogueSlice>,
  tx: CatalogueSlice,
  price: Price,
  checkUnits: boolean,
): Promise<void> {
  const { allowances } = price;
  if (allowances.length === 0) return;
  if (!context.account.earlyAccess) {
    throw new BillingError('early_access_required', 'Allowances are available only to accounts in early access.');
  }
  if (price.billingCycle === null) {
    throw new BillingError(
      'price_allowance_not_allowed_for_one_off_price',
      'Allowances can be set only on recurring prices (with a billing_cycle).',
    );
  }
  if (price.trialPeriod !== null) {
    throw new BillingError(
      'price_allowance_not_allowed_for_trial_price',
      'Allowances cannot be set on a price with a trial period.',
    );
  }
  if (allowances.length > MAX_ALLOWANCES_PER_PRICE) {
    throw new BillingError(
      'price_allowance_limit_exceeded',
      `A price can hold at most ${MAX_ALLOWANCES_PER_PRICE} allowances; ${allowances.length} were sent.`,
    );
  }
  const seen = new Set<string>();
  for (const [index, allowance] of allowances.entries()) {
    if (seen.has(allowance.usageBalanceUnitId)) {
      throw new BillingError(
        'price_allowance_duplicate_usage_balance_unit',
        `Usage balance unit ${allowance.usageBalanceUnitId} appears in more than one allowance.`,
      );
    }
    seen.add(allowance.usageBalanceUnitId);
    requireDecimal(`allowances[${index}].amount`, allowance.amount, ALLOWANCE_AMOUNT_PATTERN, { positive: false });
    // Units are checked when allowances are sent; a unit archived later does not block other edits.
    if (!checkUnits) continue;
    await usableUsageBalanceUnit(tx, context.scope, allowance.usageBalanceUnitId);
  }
}

export async function validatePrice(
  context: Context<CatalogueSlice>,
  tx: CatalogueSlice,
  price: Price,
  allowancesSent: boolean,
): Promise<void> {
  validateMoney('unit_price', price.unitPrice);
  for (const [index, override] of price.unitPriceOverrides.entries()) {
    validateMoney(`unit_price_overrides[${index}].unit_price`, override.unitPrice);
  }
  validateQuantity(price.quantity);
  if (price.trialPeriod !== null && price.billingCycle === null) {
    throw new BillingError(
      'price_trial_period_requires_billing_cycle',
      'A trial period needs a recurring price (a billing_cycle).',
    );
  }
  await validateAllowances(context, tx, price, allowancesSent);
}

export async function createPrice(context: Context<CatalogueSlice>, input: CreatePriceInput): Promise<Price> {
  return context.store.transaction(async (tx) => {
    await usableProduct(tx, context.scope, input.productId);
    const now = nowTimestamp(context);
    const price: Price = {
      id: context.ids.newId('pri'),
      productId: input.productId,
      name: input.name ?? null,
      description: input.description,
      type: input.type ?? 'standard',
      billingCycle: input.billingCycle ?? null,
      trialPeriod: storedTrial(input.trialPeriod),
      taxMode: input.taxMode ?? 'account_setting',
      unitPrice: input.unitPrice,
      unitPriceOverrides: input.unitPriceOverrides ?? [],
      quantity: input.quantity ?? DEFAULT_QUANTITY,
      allowances: input.allowances ?? [],
      customData: input.customData ?? null,
      importMeta: null,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    await validatePrice(context, tx, price, true);
    await tx.prices.insert(context.scope, price);
    await recordEvent(context, tx, 'price.created', 'price', price);
    return price;
  });
}

export async function updatePrice(
  context: Context<CatalogueSlice>,
  id: string,
  input: UpdatePriceInput,
): Promise<Price> {
  return context.store.transaction(async (tx) => {
    const current = await tx.prices.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Price', id);
    const next: Price = {
      ...current,
      name: input.name === undefined ? current.name : input.name,
      description: input.description ?? current.description,
      type: input.type ?? current.type,
      billingCycle: input.billingCycle === undefined ? current.billingCycle : input.billingCycle,
      trialPeriod: input.trialPeriod === undefined ? current.trialPeriod : storedTrial(input.trialPeriod),
      taxMode: input.taxMode ?? current.taxMode,
      unitPrice: input.unitPrice ?? current.unitPrice,
      unitPriceOverrides: input.unitPriceOverrides ?? current.unitPriceOverrides,
      quantity: input.quantity ?? current.quantity,
      allowances: input.allowances ?? current.allowances,
      customData: input.customData === undefined ? current.customData : input.customData,
      status: input.status ?? current.status,
      updatedAt: nowTimestamp(context),
    };
    await validatePrice(context, tx, next, input.allowances !== undefined);
    await tx.prices.update(context.scope, next);
    await recordEvent(context, tx, 'price.updated', 'price', next);
    return next;
  });
}

export async function getPrice(context: Context<CatalogueSlice>, id: string): Promise<Price> {
  const price = await context.store.prices.findById(context.scope, id);
  if (!price) throw BillingError.notFound('Price', id);
  return price;
}

export function listPrices(context: Context<CatalogueSlice>, query: ListQuery<PriceColumn>): Promise<Page<Price>> {
  return context.store.prices.list(context.scope, query);
}
