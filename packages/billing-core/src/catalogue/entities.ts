/**
 * @module
 * The catalogue: what is sold (products and their prices), to whom (customers and their
 * addresses), and what usage is measured in (usage balance units and meters). Field names are
 * the wire's, camel-cased; decimals and lowest-unit amounts are strings.
 */

export type CatalogueStatus = 'active' | 'archived';
export type CustomData = Readonly<Record<string, unknown>> | null;

export const INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface Duration {
  readonly interval: Interval;
  readonly frequency: number;
}

export interface Money {
  /** Lowest currency unit, as an integer string. */
  readonly amount: string;
  readonly currencyCode: string;
}

export const TAX_CATEGORIES = [
  'digital-goods',
  'ebooks',
  'implementation-services',
  'professional-services',
  'saas',
  'software-programming-services',
  'standard',
  'training-services',
  'website-hosting',
] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const CATALOGUE_TYPES = ['standard', 'custom'] as const;
export type CatalogueType = (typeof CATALOGUE_TYPES)[number];

export interface Product {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly type: CatalogueType;
  readonly taxCategory: TaxCategory;
  readonly imageUrl: string | null;
  readonly customData: CustomData;
  /** What an import left behind: always null, nothing is imported (issue 36). */
  readonly importMeta: null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** `location`: the rate and whether prices include it follow the customer's location (ADR 1430). */
export const TAX_MODES = ['account_setting', 'external', 'internal', 'location'] as const;
export type TaxMode = (typeof TAX_MODES)[number];

export interface Allowance {
  readonly usageBalanceUnitId: string;
  /** Granted per billing period, before multiplying by the subscription item's quantity. */
  readonly amount: string;
}

/**
 * A price's trial: how long it lasts, and whether the customer must give a payment method to
 * start it (`false`: a cardless trial, ADR 1010). Documents stored before the flag existed lack it
 * and read as requiring one.
 */
export interface TrialPeriod extends Duration {
  readonly requiresPaymentMethod?: boolean | undefined;
}

export interface UnitPriceOverride {
  readonly countryCodes: readonly string[];
  readonly unitPrice: Money;
}

export interface Price {
  readonly id: string;
  readonly productId: string;
  readonly name: string | null;
  readonly description: string;
  readonly type: CatalogueType;
  /** Null for a one-off price. */
  readonly billingCycle: Duration | null;
  readonly trialPeriod: TrialPeriod | null;
  readonly taxMode: TaxMode;
  readonly unitPrice: Money;
  readonly unitPriceOverrides: readonly UnitPriceOverride[];
  readonly quantity: { readonly minimum: number; readonly maximum: number };
  readonly allowances: readonly Allowance[];
  readonly customData: CustomData;
  /** What an import left behind: always null, nothing is imported (issue 36). */
  readonly importMeta: null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Customer {
  readonly id: string;
  readonly name: string | null;
  readonly email: string;
  readonly marketingConsent: boolean;
  readonly locale: string;
  readonly customData: CustomData;
  /** What an import left behind: always null, nothing is imported (issue 36). */
  readonly importMeta: null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Address {
  readonly id: string;
  readonly customerId: string;
  readonly description: string | null;
  readonly firstLine: string | null;
  readonly secondLine: string | null;
  readonly city: string | null;
  readonly postalCode: string | null;
  readonly region: string | null;
  readonly countryCode: string;
  readonly customData: CustomData;
  /** What an import left behind: always null, nothing is imported (issue 36). */
  readonly importMeta: null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface BusinessContact {
  readonly name: string | null;
  readonly email: string;
}

/** A company a customer buys for: its name and numbers appear on invoices. */
export interface Business {
  readonly id: string;
  readonly customerId: string;
  readonly name: string;
  readonly companyNumber: string | null;
  readonly taxIdentifier: string | null;
  readonly contacts: readonly BusinessContact[];
  readonly customData: CustomData;
  readonly status: CatalogueStatus;
  readonly importMeta: null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface UsageBalanceUnit {
  readonly id: string;
  readonly name: string;
  /** Plural name of what customers hold, for example `calls`. */
  readonly unitName: string;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Meter {
  readonly id: string;
  readonly usageBalanceUnitId: string;
  readonly name: string;
  readonly description: string | null;
  readonly action: string;
  /** Singular name of what the meter measures, for example `call`. */
  readonly unitName: string;
  readonly rate: string;
  readonly aggregation: 'sum';
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}
