/**
 * @module
 * Transactions and invoice links (wire reference section 4). Every total is a lowest-unit
 * integer string; show `details.totals.grandTotal`, with `grandTotalTax` as the tax within it.
 */

import type { TimestampRange } from '../core/query.js';
import type { CreatePriceInput, CreateProductInput, Price, Product } from './catalogue.js';
import type { CustomData, PageParams, TimePeriod } from './shared.js';
import type { BillingDetails, CollectionMode } from './subscriptions.js';

export type TransactionStatus = 'draft' | 'ready' | 'billed' | 'paid' | 'completed' | 'canceled' | 'past_due';

/** The statuses a customer-facing billing history shows. */
export const BILLING_HISTORY_STATUSES = [
  'billed',
  'paid',
  'past_due',
  'completed',
  'canceled',
] as const satisfies readonly TransactionStatus[];

export type TransactionOrigin =
  | 'api'
  | 'web'
  | 'subscription_charge'
  | 'subscription_payment_method_change'
  | 'subscription_recurring'
  | 'subscription_update';

export interface TransactionTotals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  /** After discounts and tax, before credits. */
  readonly total: string;
  readonly credit: string;
  readonly creditToBalance?: string;
  /** Still due after credits and payments. */
  readonly balance: string;
  /** Total minus credit: what was charged or is owed; the amount to show. */
  readonly grandTotal: string;
  /** Tax within `grandTotal`. */
  readonly grandTotalTax: string;
  readonly fee: string | null;
  readonly earnings: string | null;
  readonly currencyCode: string;
}

export interface LineItemTotals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  readonly total: string;
}

export interface TransactionLineItem {
  readonly id: string;
  readonly priceId: string;
  readonly quantity: number;
  readonly taxRate: string;
  readonly unitTotals: LineItemTotals;
  readonly totals: LineItemTotals;
  readonly product?: Product;
  readonly proration?: unknown;
}

export interface TransactionDetails {
  readonly totals: TransactionTotals;
  readonly taxRatesUsed: readonly { readonly taxRate: string; readonly totals: LineItemTotals }[];
  readonly lineItems: readonly TransactionLineItem[];
  readonly adjustedTotals?: Readonly<Record<string, string | null>> | null;
  readonly payoutTotals?: Readonly<Record<string, string | null>> | null;
  readonly adjustedPayoutTotals?: Readonly<Record<string, string | null>> | null;
}

export interface TransactionPayment {
  readonly paymentAttemptId: string;
  readonly storedPaymentMethodId: string | null;
  readonly paymentMethodId: string | null;
  readonly amount: string;
  readonly status: string;
  readonly errorCode: string | null;
  readonly methodDetails?: { readonly type: string } & Readonly<Record<string, unknown>>;
  /** The payment provider's reference (`sandbox` for simulated payments). */
  readonly providerReference?: string;
  readonly createdAt: string;
  readonly capturedAt: string | null;
}

export interface Transaction {
  readonly id: string;
  readonly status: TransactionStatus;
  readonly customerId: string | null;
  readonly addressId: string | null;
  readonly businessId: string | null;
  readonly customData: CustomData | null;
  readonly currencyCode: string;
  readonly origin: TransactionOrigin;
  readonly subscriptionId: string | null;
  readonly invoiceNumber: string | null;
  readonly collectionMode: CollectionMode;
  readonly billingDetails: BillingDetails | null;
  readonly billingPeriod: TimePeriod | null;
  readonly items: readonly { readonly price: Price; readonly quantity: number; readonly proration?: unknown }[];
  readonly details: TransactionDetails;
  readonly payments: readonly TransactionPayment[];
  readonly checkout: { readonly url: string | null } | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly billedAt: string | null;
  readonly revisedAt?: string | null;
}

export interface ListTransactionsParams extends PageParams {
  readonly id?: readonly string[];
  /** A customer-facing view always sets this: omitted, every customer's transactions are listed. */
  readonly customerId?: readonly string[];
  readonly subscriptionId?: readonly string[];
  readonly invoiceNumber?: readonly string[];
  /** Omitted, every status is listed, draft and ready included. */
  readonly status?: readonly TransactionStatus[];
  readonly collectionMode?: CollectionMode;
  readonly origin?: readonly TransactionOrigin[];
  readonly include?: readonly string[];
  readonly billedAt?: string | TimestampRange;
  readonly createdAt?: string | TimestampRange;
  readonly updatedAt?: string | TimestampRange;
}

export interface InvoicePdf {
  /** A temporary link to the PDF, valid for one hour: fetch it on demand, do not store it. */
  readonly url: string;
}

/** A non-catalogue price (ADR 1108): for a catalogue product (`productId`) or with a `product` of its own. */
export type NonCataloguePriceInput = Omit<CreatePriceInput, 'productId' | 'type' | 'allowances'> &
  (
    | { readonly productId: string; readonly product?: never }
    | { readonly productId?: never; readonly product: Omit<CreateProductInput, 'type'> }
  );

/** A catalogue price by id, or a non-catalogue `price`. */
export type TransactionItemInput =
  | { readonly priceId: string; readonly price?: never; readonly quantity: number }
  | { readonly priceId?: never; readonly price: NonCataloguePriceInput; readonly quantity: number };

interface TransactionFieldsInput {
  readonly customerId?: string | null;
  readonly addressId?: string | null;
  readonly currencyCode?: string;
  /** Prices with allowances need `automatic`. */
  readonly collectionMode?: CollectionMode;
  readonly billingDetails?: BillingDetails | null;
  readonly billingPeriod?: TimePeriod | null;
  readonly customData?: CustomData | null;
}

export interface CreateTransactionInput extends TransactionFieldsInput {
  readonly items: readonly TransactionItemInput[];
  /** Only `billed`: issue the invoice at once (manual collection). */
  readonly status?: 'billed';
}

export interface UpdateTransactionInput extends TransactionFieldsInput {
  readonly items?: readonly TransactionItemInput[];
  /** `billed` issues the invoice; `canceled` cancels. */
  readonly status?: 'billed' | 'canceled';
}

/** A payment reported by your payment provider (Drawdown records payments; it does not move money). */
export interface RecordPaymentInput {
  /** Lowest units; the whole balance when left out. */
  readonly amount?: string;
  readonly status?: 'captured' | 'error';
  /** Such as `card` or `bank_transfer`. */
  readonly methodType: string;
  readonly providerReference: string;
  readonly errorCode?: string | null;
}

export type AdjustmentAction = 'credit' | 'refund';

export interface Adjustment {
  readonly id: string;
  readonly action: AdjustmentAction;
  readonly type: 'full' | 'partial';
  readonly transactionId: string;
  readonly subscriptionId: string | null;
  readonly customerId: string;
  readonly reason: string;
  readonly creditAppliedToBalance: boolean | null;
  readonly currencyCode: string;
  readonly status: string;
  readonly items: readonly {
    readonly id: string;
    readonly itemId: string;
    readonly type: 'full' | 'partial';
    readonly amount: string;
    readonly totals: { readonly subtotal: string; readonly tax: string; readonly total: string };
  }[];
  readonly totals: Readonly<Record<string, string>>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateAdjustmentInput {
  readonly action: AdjustmentAction;
  readonly transactionId: string;
  readonly reason: string;
  /** `full` adjusts the whole transaction; `partial` the given items. */
  readonly type?: 'full' | 'partial';
  readonly items?: readonly {
    readonly itemId: string;
    readonly type: 'full' | 'partial';
    readonly amount?: string | null;
  }[];
}

export interface ListAdjustmentsParams extends PageParams {
  readonly id?: readonly string[];
  readonly transactionId?: readonly string[];
  readonly customerId?: readonly string[];
  readonly subscriptionId?: readonly string[];
  readonly action?: AdjustmentAction;
  readonly status?: readonly string[];
}

/** `location`: the customer's location decides the rate and whether prices include it. */
export type DefaultTaxMode = 'internal' | 'external' | 'location';

export interface TaxSettings {
  readonly defaultTaxMode: DefaultTaxMode;
  /** Where the rates of `internal` and `external` prices come from: these settings, or the location dataset. */
  readonly rateSource: 'account' | 'location';
  /** The seller's country for the EU reverse charge; null is outside every EU country. */
  readonly sellerCountryCode: string | null;
  /** The location rates dataset in use, such as `sales-tax@2.23.0 (2026-05-19)`. */
  readonly locationRates: string;
  /** Decimal fraction: `"0.2"` is 20%. */
  readonly defaultRate: string;
  readonly countryRates: readonly { readonly countryCode: string; readonly rate: string }[];
  readonly updatedAt: string | null;
}

export interface UpdateTaxSettingsInput {
  readonly defaultTaxMode?: DefaultTaxMode;
  readonly rateSource?: 'account' | 'location';
  readonly sellerCountryCode?: string | null;
  readonly defaultRate?: string;
  readonly countryRates?: readonly { readonly countryCode: string; readonly rate: string }[];
}

/** The seller invoices and credit notes name (ADR 1106); null fields are not printed. */
export interface SellerAddress {
  readonly firstLine: string | null;
  readonly secondLine: string | null;
  readonly city: string | null;
  readonly postalCode: string | null;
  readonly region: string | null;
  readonly countryCode: string;
}

export interface SellerDetails {
  readonly legalName: string | null;
  readonly address: SellerAddress | null;
  readonly taxIdentifier: string | null;
  readonly companyNumber: string | null;
  readonly email: string | null;
  /** The logo's facts; its bytes appear only on the documents. */
  readonly logo: {
    readonly contentType: 'image/png' | 'image/jpeg';
    readonly width: number;
    readonly height: number;
    readonly sizeBytes: number;
  } | null;
  readonly updatedAt: string | null;
}

/** Only the fields given change; null clears one. */
export interface UpdateSellerDetailsInput {
  readonly legalName?: string | null;
  readonly address?: { readonly [Key in keyof SellerAddress]?: SellerAddress[Key] | null } | null;
  readonly taxIdentifier?: string | null;
  readonly companyNumber?: string | null;
  readonly email?: string | null;
  /** A PNG or JPEG file in padded base64, at most 256 KiB and 16 to 2,048 pixels a side; null removes it. */
  readonly logo?: { readonly data: string } | null;
}

/** A card's summary as the public API gives it: never the number. */
export interface SavedCard {
  /** The brand: `visa`, `mastercard`, `american_express`, … or `unknown`. */
  readonly type: string;
  readonly last4: string;
  readonly expiryMonth: number;
  readonly expiryYear: number;
  readonly cardholderName: string;
}

/** A customer's saved payment method (`GET /customers/{id}/payment-methods`). */
export interface PaymentMethod {
  readonly id: string;
  readonly customerId: string;
  readonly addressId: string | null;
  readonly type: string;
  readonly card: SavedCard | null;
  readonly origin: string;
  readonly savedAt: string;
  readonly updatedAt: string;
}

export interface ListPaymentMethodsParams {
  readonly addressId?: readonly string[];
  readonly supportsCheckout?: boolean;
  readonly perPage?: number;
}

/** The account's checkout settings (Drawdown's `/checkout-settings`, ADRs 1412, 1112). */
export interface CheckoutSettings {
  readonly defaultPaymentLink: string | null;
  readonly effectivePaymentLink: string | null;
  readonly dunningExhaustedAction: 'subscription_canceled' | 'subscription_paused';
  /** Where a finished checkout leads back to; a checkout link's own `return_url` must share its origin. */
  readonly returnUrl: string | null;
  readonly updatedAt: string | null;
}

export interface UpdateCheckoutSettingsInput {
  readonly defaultPaymentLink?: string | null;
  readonly dunningExhaustedAction?: 'subscription_canceled' | 'subscription_paused';
  readonly returnUrl?: string | null;
}

/** The seller's logo file (`GET /seller-details/logo`, ADR 0810). */
export interface SellerLogoFile {
  readonly contentType: 'image/png' | 'image/jpeg';
  /** The file, padded base64. */
  readonly data: string;
  readonly updatedAt: string;
}
