/**
 * @module
 * Transactions: what a customer is charged, line by line, with every total computed in the
 * currency's lowest unit (BigInt arithmetic, strings on the wire). Field names are the
 * reference wire shape's, camel-cased, so the entity presents itself by snake-casing its keys.
 */
import type { CustomData, Duration, Price, Product, TaxMode } from '../catalogue/entities.js';
import type { CardSummary } from './saved-methods.js';

export const TRANSACTION_STATUSES = ['draft', 'ready', 'billed', 'paid', 'completed', 'canceled', 'past_due'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_ORIGINS = [
  'api',
  'web',
  'subscription_charge',
  'subscription_payment_method_change',
  'subscription_recurring',
  'subscription_update',
] as const;
export type TransactionOrigin = (typeof TRANSACTION_ORIGINS)[number];

export const COLLECTION_MODES = ['automatic', 'manual'] as const;
export type TransactionCollectionMode = (typeof COLLECTION_MODES)[number];

/** How an amount splits: before discount, the discount, the tax and the total. */
export interface AmountTotals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  readonly total: string;
}

export interface TransactionTotals extends AmountTotals {
  /** Credit applied to this transaction: the customer's credit balance and credit adjustments on an unpaid invoice. */
  readonly credit: string;
  /** What negative lines (a downgrade's credit) leave over: added to the customer's credit balance. */
  readonly creditToBalance: string;
  /** `grandTotal` minus payments received: what is still due. */
  readonly balance: string;
  /** `total` minus `credit`: what is charged or owed. */
  readonly grandTotal: string;
  /** The tax inside `grandTotal`. */
  readonly grandTotalTax: string;
  /** Null until completed. */
  readonly fee: string | null;
  readonly earnings: string | null;
  readonly currencyCode: string;
}

/** Totals after adjustments (credits and refunds). */
export interface AdjustedTotals {
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
  readonly grandTotal: string;
  readonly grandTotalTax: string;
  readonly fee: string;
  readonly earnings: string;
  readonly retainedFee: string;
  readonly currencyCode: string;
}

export interface PayoutTotals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  readonly total: string;
  readonly credit: string;
  readonly creditToBalance: string;
  readonly balance: string;
  readonly grandTotal: string;
  readonly grandTotalTax: string;
  readonly fee: string;
  readonly earnings: string;
  readonly currencyCode: string;
  readonly exchangeRate: string;
  readonly feeRate: string;
}

/**
 * The share of a billing period a prorated line charges or credits: `rate` is the time left
 * over the whole period (six places, informational; amounts use the exact fraction, ADR 1000),
 * `billingPeriod` the part of the period charged or credited.
 */
export interface Proration {
  readonly rate: string;
  readonly billingPeriod: TransactionBillingPeriod;
}

export interface TransactionLineItem {
  readonly id: string;
  readonly priceId: string;
  /** Negative on a credit line of a subscription change. */
  readonly quantity: number;
  readonly proration: Proration | null;
  /** The rate applied, as a decimal fraction (`"0.2"` for 20%). */
  readonly taxRate: string;
  /** One unit, rounded on its own (so unit totals times quantity may differ from totals by rounding). */
  readonly unitTotals: AmountTotals;
  readonly totals: AmountTotals;
  readonly product: Product;
}

export interface TaxRateUsed {
  readonly taxRate: string;
  readonly totals: AmountTotals;
}

export interface TransactionDetails {
  readonly taxRatesUsed: readonly TaxRateUsed[];
  readonly totals: TransactionTotals;
  readonly adjustedTotals: AdjustedTotals;
  readonly payoutTotals: PayoutTotals | null;
  readonly adjustedPayoutTotals: null;
  readonly lineItems: readonly TransactionLineItem[];
}

export interface TransactionItem {
  readonly price: Price;
  readonly quantity: number;
  readonly proration: Proration | null;
}

/**
 * `captured` counts towards the balance; `error` is a failed attempt; `canceled` is money a provider
 * took that the transaction could not take (canceled or already paid meanwhile), refunded through the
 * provider and never counted (ADR 1468).
 */
export type PaymentStatus = 'captured' | 'error' | 'canceled';

export interface PaymentMethodDetails {
  readonly type: string;
  /** Type, last four, expiry and cardholder of the card used; never its number. */
  readonly card: CardSummary | null;
  readonly underlyingDetails: null;
}

/** `checkout.url`: the account's payment link with `_ptxn`, on automatically collected transactions. */
export interface TransactionCheckout {
  readonly url: string | null;
}

/** A payment attempt as recorded: Drawdown records payments, it never moves money. */
export interface TransactionPayment {
  readonly paymentAttemptId: string;
  readonly storedPaymentMethodId: string | null;
  readonly paymentMethodId: string | null;
  readonly amount: string;
  readonly status: PaymentStatus;
  readonly errorCode: string | null;
  readonly methodDetails: PaymentMethodDetails;
  /** The operator's payment provider's reference (`sandbox` for simulated payments). */
  readonly providerReference: string;
  readonly createdAt: string;
  readonly capturedAt: string | null;
}

export interface BillingDetails {
  readonly enableCheckout: boolean;
  readonly purchaseOrderNumber: string | null;
  readonly additionalInformation: string | null;
  /** The invoice is due this long after it is billed. */
  readonly paymentTerms: Duration;
}

export interface TransactionBillingPeriod {
  readonly startsAt: string;
  readonly endsAt: string;
}

export interface Transaction {
  readonly id: string;
  readonly status: TransactionStatus;
  readonly customerId: string | null;
  readonly addressId: string | null;
  readonly businessId: string | null;
  readonly discountId: string | null;
  readonly customData: CustomData;
  readonly currencyCode: string;
  readonly origin: TransactionOrigin;
  readonly subscriptionId: string | null;
  readonly invoiceId: null;
  readonly invoiceNumber: string | null;
  readonly collectionMode: TransactionCollectionMode;
  readonly billingDetails: BillingDetails | null;
  readonly billingPeriod: TransactionBillingPeriod | null;
  readonly items: readonly TransactionItem[];
  readonly details: TransactionDetails;
  readonly payments: readonly TransactionPayment[];
  readonly checkout: TransactionCheckout | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly billedAt: string | null;
  readonly revisedAt: string | null;
}

/** How a priced line carries its tax: prices include it (`internal`) or exclude it (`external`). */
export type ResolvedTaxMode = Exclude<TaxMode, 'account_setting' | 'location'>;
