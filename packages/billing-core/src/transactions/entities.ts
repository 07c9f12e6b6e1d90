/**
 * @module
 * What transactions store besides transactions and adjustments: tax and checkout settings,
 * revisions, credit balances and payment recovery runs.
 */
import type { LocationRateOverride } from '../tax/location-tax.js';
import type { ResolvedTaxMode } from './transaction.js';

export interface CreditLedgerEntry {
  readonly kind: CreditLedgerKind;
  /** Lowest currency units, positive. */
  readonly amount: string;
  /** The transaction that produced or drew the credit. */
  readonly transactionId: string;
  readonly at: string;
}

export interface CreditAmounts {
  readonly available: string;
  readonly reserved: string;
  readonly used: string;
}

export interface CreditBalance {
  readonly customerId: string;
  readonly currencyCode: string;
  readonly balance: CreditAmounts;
}

/** One transaction's recovery (id: the transaction's id). */
export interface RecoveryRun {
  readonly id: string;
  readonly subscriptionId: string;
  readonly status: RecoveryRunStatus;
  /** The first decline: the schedule counts from it. */
  readonly startedAt: string;
  /** Retry steps passed so far, taken or (by a late scheduler) skipped: 0 to 7. */
  readonly retriesDone: number;
  /** When the next step falls due (a retry, or the end of the window); null once ended. */
  readonly nextRetryAt: string | null;
  readonly endedAt: string | null;
  readonly updatedAt: string;
}

/** What `tax_mode: account_setting` resolves to. */
export type DefaultTaxMode = ResolvedTaxMode | 'location';

/**
 * Where the rate of an `internal` or `external` price comes from: the account's own rates
 * (`account`, ADR 0403) or the location dataset (`location`). Prices in `location` mode always
 * take the dataset's rate.
 */
export type TaxRateSource = 'account' | 'location';

export interface CountryTaxRate {
  /** ISO 3166-1 alpha-2. */
  readonly countryCode: string;
  readonly rate: string;
}

export interface TaxSettings {
  readonly defaultTaxMode: DefaultTaxMode;
  readonly rateSource: TaxRateSource;
  /**
   * The country the seller is established in (ISO 3166-1 alpha-2): an EU business buying in
   * this same country is charged VAT, one in any other EU country is reverse charged. Null
   * treats the seller as established outside every EU country.
   */
  readonly sellerCountryCode: string | null;
  /** A decimal fraction between 0 and 1 with at most 6 places: `"0.2"` is 20%. */
  readonly defaultRate: string;
  readonly countryRates: readonly CountryTaxRate[];
  /**
   * Rates the account sets for parts of countries, replacing the dataset's wherever location tax
   * applies (ADR 1467): US local sales tax, a category a state exempts, a rate the dataset lacks.
   */
  readonly locationOverrides: readonly LocationRateOverride[];
  readonly updatedAt: string | null;
}

/** The revised details of one transaction; `id` is the transaction's id. */
export interface TransactionRevision {
  readonly id: string;
  readonly customer: CustomerRevision | null;
  readonly business: BusinessRevision | null;
  readonly address: AddressRevision | null;
  readonly createdAt: string;
}

/** What happens to a subscription whose payment recovery is exhausted: the public API's two choices. */
export type DunningExhaustedAction = 'subscription_canceled' | 'subscription_paused';

/** One row per account environment (id `checkout`). */
export interface CheckoutSettings {
  readonly id: 'checkout';
  /** The account's default payment link; null for the page Drawdown serves. */
  readonly defaultPaymentLink: string | null;
  /** What ends a payment recovery that recovered nothing (ADR 1460); absent in rows written before it: cancel. */
  readonly dunningExhaustedAction?: DunningExhaustedAction | undefined;
  /** Where the checkout's finished page leads back to (ADR 1112); absent in rows written before it: none. */
  readonly returnUrl?: string | null | undefined;
  readonly updatedAt: string;
}

export interface CustomerRevision {
  readonly name?: string | undefined;
}

export interface BusinessRevision {
  readonly name?: string | undefined;
  readonly taxIdentifier?: string | undefined;
}

export interface AddressRevision {
  readonly firstLine?: string | undefined;
  readonly secondLine?: string | null | undefined;
  readonly city?: string | undefined;
  readonly region?: string | undefined;
}

export const CREDIT_LEDGER_KINDS = ['grant', 'reserve', 'use', 'release'] as const;

export type CreditLedgerKind = (typeof CREDIT_LEDGER_KINDS)[number];

export type RecoveryRunStatus = 'scheduled' | 'recovered' | 'exhausted' | 'stopped';
