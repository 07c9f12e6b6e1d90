/**
 * @module
 * Buying as a business at the hosted checkout (issue 35; ADR 1113): the company name and tax
 * number a customer types, checked by pure rules before anything is written, then by the EU's
 * VIES register when the service checks VAT ids (ADR 1437). The business is stored on the
 * customer as the public API's `business` entity and named on the transaction (`business_id`),
 * so the transaction is taxed as the API taxes one with a business: reverse charged where an EU
 * business buys across a border (ADR 1430).
 */
import type { Business } from '../catalogue/entities.js';
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import { type TaxIdPorts, verifyBusinessTaxId } from '../tax/tax-id-checks.js';
import { TAX_RATE_DATASET } from '../tax/tax-rate-dataset.js';
import { normalizeVatId, vatCountryOf, vatPrefixOf } from '../tax/vat-id.js';
import type { CheckoutBusinessSlice } from './repositories.js';

/** The business a checkout form names: the company and its tax number, as typed. */
export interface CheckoutBusinessInput {
  readonly name: string;
  readonly taxIdentifier: string;
}

/** Why a tax number typed at the checkout is refused. */
export type CheckoutTaxIdProblem =
  /** Nothing typed. */
  | 'missing'
  /** Not the shape of a tax number of the buyer's country. */
  | 'format'
  /** A well-formed EU VAT number of another country than the address's. */
  | 'other_country'
  /** Well formed, but the VAT register (VIES) says it is not registered. */
  | 'not_registered';

export type CheckoutTaxIdResult =
  | { readonly ok: true; readonly taxIdentifier: string }
  | { readonly ok: false; readonly problem: CheckoutTaxIdProblem };

/** A UK VAT number: 9 or 12 digits, or a government department (GD) or health authority (HA) number; GB or XI. */
const UK_VAT = /^(GB|XI)?(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/;
/** Elsewhere a tax number of 4 to 20 letters and digits with at least one digit (ABN, GSTIN, CHE…MWST, EIN). */
const OTHER_TAX_ID = /^(?=.*\d)[A-Z0-9]{4,20}$/;

/**
 * The tax number a buyer in `countryCode` may give at the checkout, in the form it is stored in,
 * or why it is refused. Blanks, dots and dashes are dropped and letters upper-cased.
 * - In an EU country it must be a well-formed VAT number of that country (ADR 1430's format
 *   check, the one reverse charge uses), with or without its prefix; it is stored with it.
 * - In the United Kingdom it must be a UK VAT number; it is stored with `GB` (or `XI`).
 * - Elsewhere it must be 4 to 20 letters and digits, at least one a digit.
 */
export function checkoutTaxIdentifier(countryCode: string, typed: string): CheckoutTaxIdResult {
  const id = normalizeVatId(typed);
  if (id === '') return { ok: false, problem: 'missing' };
  if (TAX_RATE_DATASET.euCountries.includes(countryCode)) {
    const country = vatCountryOf(id, countryCode);
    if (country === null) return { ok: false, problem: 'format' };
    if (country !== countryCode) return { ok: false, problem: 'other_country' };
    const prefix = vatPrefixOf(countryCode);
    const prefixed = id.startsWith(prefix) && vatCountryOf(id, null) === countryCode ? id : `${prefix}${id}`;
    return { ok: true, taxIdentifier: prefixed };
  }
  if (countryCode === 'GB') {
    const match = UK_VAT.exec(id);
    if (!match) return { ok: false, problem: 'format' };
    return { ok: true, taxIdentifier: `${match[1] ?? 'GB'}${match[2]}` };
  }
  return OTHER_TAX_ID.test(id) ? { ok: true, taxIdentifier: id } : { ok: false, problem: 'format' };
}

/** The company name as stored: trimmed, 1 to 200 characters; undefined when refused. */
export function checkoutCompanyName(typed: string): string | undefined {
  const name = typed.trim().replace(/\s+/g, ' ');
  return name.length >= 1 && name.length <= 200 ? name : undefined;
}

const TAX_ID_MESSAGES: Readonly<Record<CheckoutTaxIdProblem, string>> = {
  missing: 'is required when buying as a business',
  format: 'is not a tax number of the address’s country',
  other_country: 'is a VAT number of another country than the address’s',
  not_registered: 'is not registered in the EU’s VAT register (VIES)',
};

/** The refusal of a checkout's business: `checkout_business_invalid`, with each field's problem. */
export function checkoutBusinessRefusal(problems: {
  readonly name?: boolean;
  readonly taxIdentifier?: CheckoutTaxIdProblem | undefined;
}): BillingError {
  const fields = [
    ...(problems.name ? [{ field: 'company_name', message: 'must be 1 to 200 characters' }] : []),
    ...(problems.taxIdentifier
      ? [{ field: 'tax_identifier', message: `${TAX_ID_MESSAGES[problems.taxIdentifier]} (${problems.taxIdentifier})` }]
      : []),
  ];
  return new BillingError(
    'checkout_business_invalid',
    `The business is not one the checkout takes: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}; nothing changed.`,
    fields,
  );
}

/** The business as the checkout stores it, or the refusal: every rule checked before anything is written. */
export function checkCheckoutBusiness(countryCode: string, input: CheckoutBusinessInput): CheckoutBusinessInput {
  const name = checkoutCompanyName(input.name);
  const taxId = checkoutTaxIdentifier(countryCode, input.taxIdentifier);
  if (name === undefined || !taxId.ok) {
    throw checkoutBusinessRefusal({ name: name === undefined, taxIdentifier: taxId.ok ? undefined : taxId.problem });
  }
  return { name, taxIdentifier: taxId.taxIdentifier };
}

/**
 * Before the checkout's database transaction: the business's format, then, when the service
 * checks VAT ids (ADR 1437), its VIES verdict, asked for and stored outside any database
 * transaction. A number VIES says is not registered is refused (the customer is typing it and can
 * correct it); a register that does not answer follows the configured fallback, as everywhere.
 */
export async function verifyCheckoutBusiness(
  context: Context<CheckoutBusinessSlice> & TaxIdPorts,
  countryCode: string,
  input: CheckoutBusinessInput,
): Promise<CheckoutBusinessInput> {
  const business = checkCheckoutBusiness(countryCode, input);
  const verdict = await verifyBusinessTaxId(context, business, countryCode);
  if (verdict?.status === 'invalid') throw checkoutBusinessRefusal({ taxIdentifier: 'not_registered' });
  return business;
}

/** Whether a stored business is the one the checkout was given (same name, same tax number). */
export function sameCheckoutBusiness(business: Business, wanted: CheckoutBusinessInput): boolean {
  return (
    business.status === 'active' &&
    business.name === wanted.name &&
    normalizeVatId(business.taxIdentifier ?? '') === normalizeVatId(wanted.taxIdentifier)
  );
}
