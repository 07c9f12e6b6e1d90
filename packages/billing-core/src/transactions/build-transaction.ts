/**
 * @module
 * The pure transaction builder: items, customer, address, currency, collection mode and origin
 * in; a transaction with every line and total computed out. The API's create use case and
 * the subscription engine's activations, renewals and plan changes all build through here,
 * so every transaction obeys the same rules and arithmetic.
 */
import type { Address, Business, CustomData, Customer, Price, Product, TaxCategory } from '../catalogue/entities.js';
import { type DiscountTerms, discountLines } from '../discounts/apply-discount.js';
import { isSupportedCurrency } from '../money/currencies.js';
import { Decimal } from '../money/decimal.js';
import { divideRounded } from '../money/rounding.js';
import { BillingError } from '../shared/billing-error.js';
import type { IdGenerator } from '../shared/ids.js';
import { type LocationTax, locationTax, type TaxIdCheckOutcome, type TaxLocation } from '../tax/location-tax.js';
import { REDUCED_RATES } from '../tax/reduced-rates.js';
import { TAX_RATE_DATASET } from '../tax/tax-rate-dataset.js';
import { DEFAULT_BILLING_DETAILS } from './due-dates.js';
import type { TaxSettings } from './entities.js';
import { taxRateFor } from './tax-settings.js';
import type {
  BillingDetails,
  ResolvedTaxMode,
  Transaction,
  TransactionBillingPeriod,
  TransactionCollectionMode,
  TransactionOrigin,
  TransactionStatus,
} from './transaction.js';
import { composeDetails, NO_SETTLEMENT, type PeriodShare, type PricedLine, priceLines } from './transaction-totals.js';

export interface BuildTransactionItem {
  readonly price: Price;
  readonly product: Product;
  readonly quantity: number;
  /**
   * Set on the lines of a subscription change: the quantity is the signed difference (a credit
   * is negative) rather than a purchase within the price's limits, and `share` prorates it.
   */
  readonly change?:
    | {
        readonly share: PeriodShare | null;
        /** On a credit line: the rate and inclusion the credited units were charged with (ADR 1447). */
        readonly paidTax?: { readonly rate: string; readonly mode: ResolvedTaxMode } | undefined;
      }
    | undefined;
}

export interface BuildTransactionInput {
  readonly items: readonly BuildTransactionItem[];
  readonly customer: Customer | null;
  /** Must belong to `customer`; its country picks the tax rate and any unit price override. */
  readonly address: Address | null;
  /** A country without a stored address (previews); an address's own country wins. */
  readonly countryCode?: string | null | undefined;
  /** A postal code without a stored address (previews), for regional rates (ADR 1430). */
  readonly postalCode?: string | null | undefined;
  /** Must belong to `customer`; the caller checks it is active. Its tax id may reverse charge VAT. */
  readonly business?: Business | null | undefined;
  /** The register's verdict on the business's tax id, checked before the build (ADR 1437). */
  readonly taxIdCheck?: TaxIdCheckOutcome | null | undefined;
  /** Defaults to the first item's currency; every item must be priced in it. */
  readonly currencyCode?: string | undefined;
  readonly collectionMode: TransactionCollectionMode;
  readonly origin: TransactionOrigin;
  readonly subscriptionId?: string | null | undefined;
  readonly billingPeriod?: TransactionBillingPeriod | null | undefined;
  /** Manual collection defaults to net-30 payment terms. */
  readonly billingDetails?: BillingDetails | null | undefined;
  readonly customData?: CustomData | undefined;
  /**
   * Set on transactions that can start a subscription (API and checkout): a recurring price with
   * a trial period is charged nothing, as its subscription starts trialing (ADR 1004).
   */
  readonly startsTrials?: boolean | undefined;
  /** Taken off the eligible lines before tax (ADR 1100); the caller checks it is usable. */
  readonly discount?: DiscountTerms | null | undefined;
}

export interface BuildEnvironment {
  readonly ids: IdGenerator;
  /** The account environment's current time, RFC 3339; location rates are those in force then. */
  readonly now: string;
  readonly taxSettings: TaxSettings;
}

/** What the builder keeps of a transaction it rebuilds (id, creation time, payments). */
export interface Rebuilt {
  readonly id: string;
  readonly createdAt: string;
  readonly lineIds: readonly string[];
}

/** The unit price that applies in `countryCode`: that country's override, or the price's own. */
export function unitPriceFor(price: Price, countryCode: string | null) {
  const override =
    countryCode === null
      ? undefined
      : price.unitPriceOverrides.find((candidate) => candidate.countryCodes.includes(countryCode));
  return override?.unitPrice ?? price.unitPrice;
}

function isTrialPrice(price: Price): boolean {
  return price.trialPeriod !== null && price.billingCycle !== null;
}

function sameDuration(left: Price['trialPeriod'], right: Price['trialPeriod']): boolean {
  return left?.interval === right?.interval && left?.frequency === right?.frequency;
}

/** The recurring items a subscription would start with share one trial, or none has a trial. */
function requireOneTrial(items: readonly BuildTransactionItem[]): void {
  const recurring = items.filter((item) => item.price.billingCycle !== null);
  const [first, ...rest] = recurring;
  if (first && rest.some((item) => !sameDuration(item.price.trialPeriod, first.price.trialPeriod))) {
    throw new BillingError(
      'subscription_trial_items_mixed',
      'The recurring prices of a transaction that starts a subscription must all have the same trial period, or none.',
    );
  }
}

/** The rate and inclusion of each price's tax on one transaction (ADR 0403, ADR 1430). */
export function taxResolver(input: BuildTransactionInput, environment: BuildEnvironment) {
  const settings = environment.taxSettings;
  const location: TaxLocation = {
    countryCode: input.address?.countryCode ?? input.countryCode ?? null,
    region: input.address?.region ?? null,
    postalCode: input.address ? input.address.postalCode : (input.postalCode ?? null),
    taxIdentifier: input.business?.taxIdentifier ?? null,
    taxIdCheck: input.taxIdCheck ?? null,
  };
  // One location, but the rate may differ by the product's tax category (ADR 1436).
  const located = new Map<TaxCategory, LocationTax>();
  const byLocation = (category: TaxCategory): LocationTax => {
    let tax = located.get(category);
    if (!tax) {
      tax = locationTax(
        TAX_RATE_DATASET,
        location,
        environment.now,
        settings.sellerCountryCode,
        category,
        settings.locationOverrides,
        REDUCED_RATES,
      );
      located.set(category, tax);
    }
    return tax;
  };
  const accountRate = taxRateFor(settings, location.countryCode);
  return (price: Price, product: Product): { readonly rate: Decimal; readonly mode: ResolvedTaxMode } => {
    const mode = price.taxMode === 'account_setting' ? settings.defaultTaxMode : price.taxMode;
    if (mode === 'location') return byLocation(product.taxCategory);
    return { rate: settings.rateSource === 'location' ? byLocation(product.taxCategory).rate : accountRate, mode };
  };
}

/** `draft` until customer and address are both known, then `ready`. */
export function completenessStatus(customerId: string | null, addressId: string | null): TransactionStatus {
  return customerId !== null && addressId !== null ? 'ready' : 'draft';
}

/**
 * Builds a transaction, `draft` or `ready`, with its lines and totals computed.
 * @throws BillingError `invalid_field` for no items, an out-of-range quantity, mixed currencies
 *   or an address of another customer; `transaction_manual_collection_not_allowed_for_allowance`
 *   for manual collection of prices with allowances.
 */
export function buildTransaction(
  input: BuildTransactionInput,
  environment: BuildEnvironment,
  rebuilt?: Rebuilt,
): Transaction {
  const [first] = input.items;
  if (!first) throw BillingError.invalidField('items', 'must hold at least one item');
  if (input.address && input.customer && input.address.customerId !== input.customer.id) {
    throw BillingError.invalidField('address_id', 'must be an address of the transaction’s customer');
  }
  if (input.business && input.business.customerId !== input.customer?.id) {
    throw BillingError.invalidField('business_id', 'must be a business of the transaction’s customer');
  }
  if (input.address && !input.customer) {
    throw BillingError.invalidField('address_id', 'needs a customer_id');
  }
  if (input.collectionMode === 'manual' && input.items.some((item) => item.price.allowances.length > 0)) {
    throw new BillingError(
      'transaction_manual_collection_not_allowed_for_allowance',
      'A transaction whose prices have allowances must be collected automatically.',
      [{ field: 'collection_mode', message: 'must be automatic for prices with allowances' }],
    );
  }
  if (input.startsTrials) requireOneTrial(input.items);
  const countryCode = input.address?.countryCode ?? input.countryCode ?? null;
  const currencyCode = input.currencyCode ?? unitPriceFor(first.price, countryCode).currencyCode;
  if (!isSupportedCurrency(currencyCode))
    throw BillingError.invalidField('currency_code', 'is not a supported currency');
  const taxOf = taxResolver(input, environment);
  const undiscounted = input.items.map((item, index) => {
    const { price, quantity } = item;
    if (item.change) {
      if (!Number.isInteger(quantity) || quantity === 0) {
        throw BillingError.invalidField(`items[${index}].quantity`, 'must be a non-zero whole number on a change line');
      }
    } else if (!Number.isInteger(quantity) || quantity < price.quantity.minimum || quantity > price.quantity.maximum) {
      throw BillingError.invalidField(
        `items[${index}].quantity`,
        `must be a whole number from ${price.quantity.minimum} to ${price.quantity.maximum} for price ${price.id}`,
      );
    }
    const unitPrice = unitPriceFor(price, countryCode);
    // A credit gives back the tax that was paid, whatever the address draws today (ADR 1447).
    const paid = quantity < 0 ? item.change?.paidTax : undefined;
    const { rate, mode } = paid ? { rate: Decimal.parse(paid.rate), mode: paid.mode } : taxOf(price, item.product);
    if (unitPrice.currencyCode !== currencyCode) {
      // Drawdown converts no currency (ADR 1477): the price needs its own amount in this currency.
      throw new BillingError(
        'transaction_currency_conversion_not_supported',
        `Price ${price.id} is priced in ${unitPrice.currencyCode}${countryCode ? ` for ${countryCode}` : ''}, not in the transaction currency ${currencyCode}, and Drawdown converts no currency: give the price a unit_price_overrides entry in ${currencyCode} for the customer's country, or bill in ${unitPrice.currencyCode}.`,
        [
          {
            field: `items[${index}].price_id`,
            message: `must be priced in ${currencyCode} for the customer's country`,
          },
        ],
      );
    }
    return {
      id: rebuilt?.lineIds[index] ?? environment.ids.newId('txnitm'),
      price,
      product: item.product,
      quantity,
      unitAmount: input.startsTrials && isTrialPrice(price) ? 0n : BigInt(unitPrice.amount),
      rate: rate.isZero() ? Decimal.zero : rate,
      mode,
      share: item.change?.share ?? undefined,
    };
  });
  const discount = input.discount ?? null;
  const discounts =
    discount === null
      ? undiscounted.map(() => 0n)
      : discountLines(
          discount,
          undiscounted.map((line) => ({
            priceId: line.price.id,
            productId: line.product.id,
            quantity: line.quantity,
            gross: line.unitAmount * BigInt(line.quantity),
          })),
          currencyCode,
        );
  // A prorated line takes its share of the whole period's discount, rounded once like its amount (ADR 1013).
  const lines = undiscounted.map(
    (line, index): PricedLine => ({ ...line, discount: prorated(discounts[index] ?? 0n, line.share) }),
  );
  const customerId = input.customer?.id ?? null;
  const addressId = input.address?.id ?? null;
  const billingDetails =
    input.collectionMode === 'manual'
      ? (input.billingDetails ?? DEFAULT_BILLING_DETAILS)
      : (input.billingDetails ?? null);
  return {
    id: rebuilt?.id ?? environment.ids.newId('txn'),
    status: completenessStatus(customerId, addressId),
    customerId,
    addressId,
    businessId: input.business?.id ?? null,
    discountId: discount?.id ?? null,
    customData: input.customData ?? null,
    currencyCode,
    origin: input.origin,
    subscriptionId: input.subscriptionId ?? null,
    invoiceId: null,
    invoiceNumber: null,
    collectionMode: input.collectionMode,
    billingDetails,
    billingPeriod: input.billingPeriod ?? null,
    items: input.items.map((item) => ({
      price: item.price,
      quantity: item.quantity,
      proration: item.change?.share?.proration ?? null,
    })),
    details: composeDetails(priceLines(lines), NO_SETTLEMENT, currencyCode),
    payments: [],
    checkout: null,
    createdAt: rebuilt?.createdAt ?? environment.now,
    updatedAt: environment.now,
    billedAt: null,
    revisedAt: null,
  };
}

/** `amount` scaled by a prorated line's share of its period, rounded half to even; whole without one. */
function prorated(amount: bigint, share: PeriodShare | undefined): bigint {
  return share && amount !== 0n ? divideRounded(amount * share.remaining, share.whole, 'half-even') : amount;
}
