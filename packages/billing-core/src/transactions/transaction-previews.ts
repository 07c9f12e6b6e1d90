/**
 * @module
 * Previews of what a transaction would charge, computed by the same builder as real
 * transactions (`buildTransaction`), from reads only: nothing is written. `POST
 * /transactions/preview` answers the priced transaction; `POST /pricing-preview` the priced
 * lines with amounts formatted for display. Tax is that of a transaction built now: the tax
 * settings and, for location tax, the address (a stored one, or a country and postal code sent
 * with the request) and the business's VAT id (ADR 1430).
 */
import { COUNTRY_CODE_PATTERN } from '../catalogue/addresses.js';
import { resolveBusiness } from '../catalogue/businesses.js';
import type { DiscountTerms } from '../discounts/apply-discount.js';
import { type DiscountTermsInput, previewCustomDiscount, previewDiscount } from '../discounts/discounts.js';
import { type CurrencyCode, isSupportedCurrency } from '../money/currencies.js';
import { formatMinorUnits } from '../money/money-format.js';

import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { storedTaxIdCheck, verifyBusinessTaxId } from '../tax/tax-id-checks.js';
import { buildTransaction } from './build-transaction.js';
import type { TransactionSlice } from './repositories.js';
import { withTaxDefaults } from './tax-settings.js';
import type { AmountTotals, Transaction } from './transaction.js';
import { resolveItems, resolveParties, type TransactionItemInput } from './transactions.js';

export interface PreviewAddress {
  readonly countryCode: string;
  readonly postalCode?: string | null | undefined;
}

export interface PreviewTransactionInput {
  readonly items: readonly TransactionItemInput[];
  readonly customerId?: string | null | undefined;
  readonly addressId?: string | null | undefined;
  /** A business of the customer: its VAT id may reverse charge the tax (ADR 1430). */
  readonly businessId?: string | null | undefined;
  readonly currencyCode?: string | null | undefined;
  readonly address?: PreviewAddress | null | undefined;
  /** Price trial items at their full price instead of free (`POST /transactions/preview`). */
  readonly ignoreTrials?: boolean | null | undefined;
  /** A catalogue discount the transaction would redeem (checked, not counted). */
  readonly discountId?: string | null | undefined;
  /** A non-catalogue discount the transaction would create (validated, not stored; transaction preview only). */
  readonly discount?: DiscountTermsInput | null | undefined;
  /** The customer's IP address as sent (`customer_ip_address`), echoed on the preview. */
  readonly customerIpAddress?: string | null | undefined;
  /**
   * The country the edge located `customerIpAddress` in (ADR 1434), or null when it has none.
   * It localizes prices and tax only when neither `address` nor `address_id` is sent.
   */
  readonly ipCountryCode?: string | null | undefined;
  /** Wire names of public API fields sent that previews do not offer: each is refused. */
  readonly unsupportedFields?: readonly string[] | undefined;
}

export interface TransactionPreview {
  readonly ignoreTrials: boolean;
  readonly customerId: string | null;
  readonly addressId: string | null;
  readonly businessId: string | null;
  readonly currencyCode: string;
  readonly address: PreviewAddress | null;
  /** The catalogue discount applied, if one was named. */
  readonly discountId: string | null;
  readonly customerIpAddress: string | null;
  /** The transaction as it would be built; never stored. */
  readonly transaction: Transaction;
}

/** The transaction `input` would create, priced and taxed, written nowhere. */
export async function previewTransaction(
  context: Context<TransactionSlice>,
  input: PreviewTransactionInput,
): Promise<TransactionPreview> {
  const unsupported = input.unsupportedFields ?? [];
  if (unsupported.length > 0) {
    throw new BillingError(
      'field_not_supported',
      `Drawdown does not offer ${unsupported.join(', ')} on a preview yet; send the request without it.`,
    );
  }
  if (input.address && !COUNTRY_CODE_PATTERN.test(input.address.countryCode)) {
    throw BillingError.invalidField('address.country_code', 'must be an ISO 3166-1 alpha-2 code such as GB');
  }
  if (input.addressId && input.address) {
    throw BillingError.invalidField('address', 'cannot be sent with address_id: send one of them');
  }
  if (input.currencyCode && !isSupportedCurrency(input.currencyCode)) {
    throw BillingError.invalidField('currency_code', 'is not a supported currency');
  }
  const store = context.store;
  // Non-catalogue prices are built in memory: a preview writes nothing (ADR 1108).
  const items = await resolveItems(context, store, input.items, false);
  const { customer, address } = await resolveParties(context, store, input.customerId ?? null, input.addressId ?? null);
  const business =
    input.businessId == null ? null : await resolveBusiness(context, store, input.businessId, customer?.id ?? null);
  const taxSettings = withTaxDefaults(await store.billingSettings.findTaxSettings(context.scope));
  const discount = await previewDiscountTerms(context, input);
  // An address sent or stored wins over the IP address's country (ADR 1434).
  const countryCode = input.address?.countryCode ?? (input.addressId ? null : (input.ipCountryCode ?? null));
  // A preview runs in no database transaction: the VAT id is checked with VIES here (ADR 1437).
  const buyerCountry = address?.countryCode ?? countryCode;
  await verifyBusinessTaxId(context, business, buyerCountry);
  const transaction = buildTransaction(
    {
      items,
      customer,
      address,
      business,
      taxIdCheck: await storedTaxIdCheck(context, store, business, buyerCountry),
      countryCode,
      postalCode: input.address?.postalCode ?? null,
      currencyCode: input.currencyCode ?? undefined,
      collectionMode: 'automatic',
      origin: 'api',
      startsTrials: input.ignoreTrials !== true,
      discount,
    },
    { ids: context.ids, now: nowTimestamp(context), taxSettings },
  );
  return {
    ignoreTrials: input.ignoreTrials === true,
    customerId: customer?.id ?? null,
    addressId: address?.id ?? null,
    businessId: business?.id ?? null,
    currencyCode: transaction.currencyCode,
    address: address ? { countryCode: address.countryCode, postalCode: address.postalCode } : (input.address ?? null),
    discountId: input.discountId ?? null,
    customerIpAddress: input.customerIpAddress ?? null,
    transaction,
  };
}

/**
 * The discount a preview applies, as the transaction would (ADR 1100), checked and written
 * nowhere: a catalogue discount must be redeemable now; a flat non-catalogue one needs a currency.
 */
async function previewDiscountTerms(
  context: Context<TransactionSlice>,
  input: PreviewTransactionInput,
): Promise<DiscountTerms | null> {
  if (input.discountId != null && input.discount != null) {
    throw new BillingError('transaction_discount_conflict', 'Send discount_id or discount, not both.');
  }
  if (input.discountId != null) return previewDiscount(context, context.store, input.discountId);
  if (input.discount == null) return null;
  const flat = input.discount.type !== 'percentage';
  if (flat && !input.currencyCode) {
    throw new BillingError(
      'transaction_requires_currency_code_for_custom_discount',
      'A preview with a flat non-catalogue discount needs a currency_code.',
    );
  }
  return previewCustomDiscount(context, context.store, {
    ...input.discount,
    mode: 'custom',
    currencyCode: flat ? input.currencyCode : null,
  });
}

/** Amount totals formatted in the currency, for display. */
export function formatTotals(totals: AmountTotals, currencyCode: string): AmountTotals {
  const format = (amount: string) => formatMinorUnits(BigInt(amount), currencyCode as CurrencyCode);
  return {
    subtotal: format(totals.subtotal),
    discount: format(totals.discount),
    tax: format(totals.tax),
    total: format(totals.total),
  };
}
