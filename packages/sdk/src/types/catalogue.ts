/**
 * @module
 * The catalogue: products and prices (with allowances), customers and their addresses, and the
 * usage-based billing catalogue of usage balance units and meters.
 */
import type { CatalogueStatus, CustomData, Duration, Money, PageParams } from './shared.js';

export type TaxCategory =
  | 'digital-goods'
  | 'ebooks'
  | 'implementation-services'
  | 'professional-services'
  | 'saas'
  | 'software-programming-services'
  | 'standard'
  | 'training-services'
  | 'website-hosting';

export type CatalogueType = 'standard' | 'custom';

export interface Product {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly type: CatalogueType;
  readonly taxCategory: TaxCategory;
  readonly imageUrl: string | null;
  readonly customData: CustomData | null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateProductInput {
  readonly name: string;
  readonly taxCategory: TaxCategory;
  readonly description?: string | null;
  readonly type?: CatalogueType;
  readonly imageUrl?: string | null;
  readonly customData?: CustomData | null;
}

export interface UpdateProductInput extends Partial<CreateProductInput> {
  readonly status?: CatalogueStatus;
}

export interface ListProductsParams extends PageParams {
  readonly id?: readonly string[];
  readonly status?: readonly CatalogueStatus[];
  readonly type?: readonly CatalogueType[];
  readonly taxCategory?: readonly TaxCategory[];
}

/** An amount of a usage balance unit granted per billing period, multiplied by the item quantity. */
export interface Allowance {
  readonly usageBalanceUnitId: string;
  /** Decimal string; `0` gives an empty balance, so all usage is overage. */
  readonly amount: string;
}

export type TaxMode = 'account_setting' | 'external' | 'internal' | 'location';

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
  /** Null for a one-time price. */
  readonly billingCycle: Duration | null;
  readonly trialPeriod: Duration | null;
  readonly taxMode: TaxMode;
  readonly unitPrice: Money;
  readonly unitPriceOverrides: readonly UnitPriceOverride[];
  readonly quantity: { readonly minimum: number; readonly maximum: number };
  /** Usage allowances (early access); empty when the price grants none. */
  readonly allowances: readonly Allowance[];
  readonly customData: CustomData | null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreatePriceInput {
  readonly productId: string;
  readonly description: string;
  readonly unitPrice: Money;
  readonly name?: string | null;
  readonly type?: CatalogueType;
  readonly billingCycle?: Duration | null;
  readonly trialPeriod?: Duration | null;
  readonly taxMode?: TaxMode;
  readonly unitPriceOverrides?: readonly UnitPriceOverride[];
  readonly quantity?: { readonly minimum: number; readonly maximum: number };
  /** At most 20, one per unit, on a recurring price without a trial. */
  readonly allowances?: readonly Allowance[];
  readonly customData?: CustomData | null;
}

export interface UpdatePriceInput extends Partial<Omit<CreatePriceInput, 'productId'>> {
  /** Replaces the previous allowances in full: send every allowance to keep. */
  readonly allowances?: readonly Allowance[];
  readonly status?: CatalogueStatus;
}

export interface ListPricesParams extends PageParams {
  readonly id?: readonly string[];
  readonly productId?: readonly string[];
  readonly status?: readonly CatalogueStatus[];
  readonly type?: readonly CatalogueType[];
  readonly recurring?: boolean;
}

export interface Customer {
  readonly id: string;
  readonly name: string | null;
  readonly email: string;
  readonly marketingConsent: boolean;
  readonly locale: string;
  readonly customData: CustomData | null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateCustomerInput {
  readonly email: string;
  readonly name?: string | null;
  readonly locale?: string;
  readonly customData?: CustomData | null;
}

export interface UpdateCustomerInput extends Partial<CreateCustomerInput> {
  readonly status?: CatalogueStatus;
}

export interface ListCustomersParams extends PageParams {
  readonly id?: readonly string[];
  readonly email?: readonly string[];
  readonly status?: readonly CatalogueStatus[];
  /** Matches name and email. */
  readonly search?: string;
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
  readonly customData: CustomData | null;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateAddressInput {
  readonly countryCode: string;
  readonly description?: string | null;
  readonly firstLine?: string | null;
  readonly secondLine?: string | null;
  readonly city?: string | null;
  readonly postalCode?: string | null;
  readonly region?: string | null;
  readonly customData?: CustomData | null;
}

export interface UpdateAddressInput extends Partial<CreateAddressInput> {
  readonly status?: CatalogueStatus;
}

export interface ListAddressesParams extends PageParams {
  readonly id?: readonly string[];
  readonly status?: readonly CatalogueStatus[];
}

/** What customers hold a balance of, such as API calls or credits (`ubu_`). */
export interface UsageBalanceUnit {
  readonly id: string;
  readonly name: string;
  /** Plural name, for example `calls`. */
  readonly unitName: string;
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateUsageBalanceUnitInput {
  readonly name: string;
  readonly unitName: string;
}

export interface UpdateUsageBalanceUnitInput extends Partial<CreateUsageBalanceUnitInput> {
  readonly status?: CatalogueStatus;
}

export interface ListUsageBalanceUnitsParams extends PageParams {
  readonly id?: readonly string[];
  readonly status?: readonly CatalogueStatus[];
}

/** Links one action to one usage balance unit at a rate (`mtr_`). */
export interface Meter {
  readonly id: string;
  /** Immutable. */
  readonly usageBalanceUnitId: string;
  readonly name: string;
  readonly description: string | null;
  /** `^[a-z][a-z0-9_]*$`, 2 to 64 characters; sent on usage events. */
  readonly action: string;
  /** Singular name of what the meter measures, for example `call`. */
  readonly unitName: string;
  /** Decimal string greater than zero: drawdown per unit of usage. */
  readonly rate: string;
  readonly aggregation: 'sum';
  readonly status: CatalogueStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateMeterInput {
  readonly usageBalanceUnitId: string;
  readonly name: string;
  readonly action: string;
  readonly unitName: string;
  readonly rate: string;
  readonly description?: string | null;
  readonly aggregation?: 'sum';
}

/** Changing rate or action affects only new usage. */
export interface UpdateMeterInput {
  readonly name?: string;
  readonly description?: string | null;
  readonly action?: string;
  readonly unitName?: string;
  readonly rate?: string;
  readonly status?: CatalogueStatus;
}

export interface ListMetersParams extends PageParams {
  readonly id?: readonly string[];
  readonly status?: readonly CatalogueStatus[];
  readonly usageBalanceUnitId?: readonly string[];
  readonly action?: readonly string[];
}
