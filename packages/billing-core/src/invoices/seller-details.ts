/**
 * @module
 * The seller an account environment's invoices and credit notes name (ADR 1106): legal name,
 * address, tax identifier, company number, contact email and a logo. The operator sets them
 * through `PATCH /seller-details` or `drawdown accounts seller-details set`; a field not set
 * leaves the document showing the account's name alone.
 *
 * The logo arrives as base64. The core checks its size and what it is, but decoding is I/O-free
 * work it leaves to a port (`ImageDecoder`): the service decodes the whole image with real PNG
 * and JPEG decoders, so a file is a logo because it decodes, never because of its name.
 */
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { isSupportedCurrency } from '../money/currencies.js';
import { Decimal } from '../money/decimal.js';
import { BillingError, type FieldError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type {
  LogoFormat,
  PaymentInstructions,
  ReferenceRate,
  SellerAddress,
  SellerDetails,
  SellerLogo,
} from './entities.js';
import { readLogoHeader } from './logo-header.js';
import type { InvoiceSlice } from './repositories.js';

/**
 * A logo's limits: at most 256 KiB, 16 to 2,048 pixels a side, at most 4 MiB of pixels once
 * decoded (height × width × bytes per pixel: 1,024 × 1,024 in 8-bit RGBA) and, for a JPEG, at
 * most 100 scans. The last three are read from the header before any decoding (ADR 1490).
 */
export const LOGO_LIMITS = {
  maxBytes: 256 * 1024,
  minSide: 16,
  maxSide: 2048,
  maxDecodedBytes: 4 * 1024 * 1024,
  maxJpegScans: 100,
} as const;

/** What the port found in an image file, or why it is not one. */
export type DecodedImage =
  | { readonly ok: true; readonly contentType: LogoFormat; readonly width: number; readonly height: number }
  | { readonly ok: false; readonly problem: string };

/** Decodes a whole image file (the service's PNG and JPEG decoders). */
export interface ImageDecoder {
  decode(bytes: Uint8Array): Promise<DecodedImage>;
}

/** The seller details as the API shows them: the logo's facts, not its bytes. */
export interface SellerDetailsView {
  readonly legalName: string | null;
  readonly address: SellerAddress | null;
  readonly taxIdentifier: string | null;
  readonly companyNumber: string | null;
  readonly email: string | null;
  readonly logo: Omit<SellerLogo, 'data'> | null;
  readonly paymentInstructions: PaymentInstructions | null;
  readonly taxCurrency: string | null;
  readonly referenceRates: readonly ReferenceRate[];
  readonly termsUrl: string | null;
  readonly privacyUrl: string | null;
  readonly refundPolicyUrl: string | null;
  readonly contactUrl: string | null;
  readonly updatedAt: string | null;
}

export interface UpdateSellerDetailsInput {
  readonly legalName?: string | null | undefined;
  readonly address?:
    | { readonly [Key in keyof SellerAddress]?: SellerAddress[Key] | null | undefined }
    | null
    | undefined;
  readonly taxIdentifier?: string | null | undefined;
  readonly companyNumber?: string | null | undefined;
  readonly email?: string | null | undefined;
  /** Base64 of a PNG or JPEG file; null removes the logo. */
  readonly logo?: { readonly data: string } | null | undefined;
  /** Replaces the instructions as a whole; null removes them. */
  readonly paymentInstructions?:
    | { readonly [Key in keyof PaymentInstructions]?: PaymentInstructions[Key] | null | undefined }
    | null
    | undefined;
  readonly taxCurrency?: string | null | undefined;
  /** Replaces the list as a whole. */
  readonly referenceRates?: readonly ReferenceRate[] | undefined;
  /** The seller's pages the checkout links to (ADR 1113): http(s) addresses; null removes one. */
  readonly termsUrl?: string | null | undefined;
  readonly privacyUrl?: string | null | undefined;
  readonly refundPolicyUrl?: string | null | undefined;
  readonly contactUrl?: string | null | undefined;
}

export interface SellerDetailsContext extends Context<InvoiceSlice> {
  readonly images: ImageDecoder;
}

const EMPTY: Omit<SellerDetails, 'updatedAt'> = {
  id: 'seller',
  legalName: null,
  address: null,
  taxIdentifier: null,
  companyNumber: null,
  email: null,
  logo: null,
  paymentInstructions: null,
  taxCurrency: null,
  referenceRates: [],
  termsUrl: null,
  privacyUrl: null,
  refundPolicyUrl: null,
  contactUrl: null,
};

/** Every field removed: what `drawdown seller-details clear` asks for. */
export const SELLER_DETAILS_CLEARED: UpdateSellerDetailsInput = (({ id: _id, ...fields }) => fields)(EMPTY);

export function sellerDetailsView(details: SellerDetails | undefined): SellerDetailsView {
  const { id: _id, logo, ...rest } = details ?? { ...EMPTY, updatedAt: null };
  const shown = logo
    ? { contentType: logo.contentType, width: logo.width, height: logo.height, sizeBytes: logo.sizeBytes }
    : null;
  return { ...rest, logo: shown };
}

export async function findSellerDetails(context: Context<InvoiceSlice>): Promise<SellerDetails | undefined> {
  const stored = await context.store.sellerDetails.findById(context.scope, 'seller');
  // Details stored before ADR 1110 have no payment instructions, tax currency or rates; before ADR 1113, no links.
  return stored ? { ...EMPTY, ...stored } : undefined;
}

/**
 * The seller's logo file, for pages that show the seller (the billing portal, ADR 0810); a
 * seller without a logo is `not_found`.
 */
export async function getSellerLogo(
  context: Context<InvoiceSlice>,
): Promise<{ readonly contentType: LogoFormat; readonly data: string; readonly updatedAt: string }> {
  const details = await findSellerDetails(context);
  if (!details?.logo) throw new BillingError('not_found', 'The seller details have no logo.');
  return { contentType: details.logo.contentType, data: details.logo.data, updatedAt: details.updatedAt };
}

export async function getSellerDetails(context: Context<InvoiceSlice>): Promise<SellerDetailsView> {
  return sellerDetailsView(await findSellerDetails(context));
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Strict base64 (padded, no whitespace) to bytes. */
function base64Bytes(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let at = 0;
  for (let index = 0; index < text.length; index += 4) {
    const digits = [0, 1, 2, 3].map((offset) => {
      const digit = BASE64_DIGITS.indexOf(text[index + offset] ?? '=');
      return digit < 0 ? 0 : digit;
    });
    const [a = 0, b = 0, c = 0, d = 0] = digits;
    const word = (a << 18) | (b << 12) | (c << 6) | d;
    for (const shift of [16, 8, 0]) {
      if (at < bytes.length) bytes[at++] = (word >> shift) & 0xff;
    }
  }
  return bytes;
}

async function logoOf(context: SellerDetailsContext, data: string): Promise<SellerLogo> {
  const refuse = (problem: string) =>
    new BillingError('invalid_logo', `The logo ${problem}.`, [{ field: 'logo.data', message: problem }]);
  if (data.length > Math.ceil(LOGO_LIMITS.maxBytes / 3) * 4)
    throw refuse(`must be at most ${LOGO_LIMITS.maxBytes} bytes`);
  const bytes = base64Bytes(data);
  if (!bytes || bytes.length === 0) throw refuse('must be a PNG or JPEG file in padded base64');
  if (bytes.length > LOGO_LIMITS.maxBytes) throw refuse(`must be at most ${LOGO_LIMITS.maxBytes} bytes`);
  // What the file declares is checked before a pixel is decoded: a small file can declare a huge image (ADR 1490).
  const header = readLogoHeader(bytes);
  if (!header.ok) throw refuse(`is not a PNG or JPEG image that decodes (${header.problem})`);
  const tooLarge = declaredOverLimits(header);
  if (tooLarge) {
    throw new BillingError('logo_too_large', `The logo ${tooLarge}.`, [{ field: 'logo.data', message: tooLarge }]);
  }
  const decoded = await context.images.decode(bytes);
  if (!decoded.ok) throw refuse(`is not a PNG or JPEG image that decodes (${decoded.problem})`);
  const { width, height } = decoded;
  const { minSide, maxSide } = LOGO_LIMITS;
  if (width < minSide || height < minSide || width > maxSide || height > maxSide) {
    throw refuse(`must be ${minSide} to ${maxSide} pixels wide and high; it is ${width} × ${height}`);
  }
  return { contentType: decoded.contentType, width, height, sizeBytes: bytes.length, data };
}

/** Why a header declares more than the service decodes, or undefined when it is within the limits. */
function declaredOverLimits(header: {
  readonly width: number;
  readonly height: number;
  readonly decodedBytes: number;
  readonly scans: number;
}): string | undefined {
  const { maxSide, maxDecodedBytes, maxJpegScans } = LOGO_LIMITS;
  if (header.width > maxSide || header.height > maxSide) {
    return `declares ${header.width} × ${header.height} pixels; at most ${maxSide} a side are accepted`;
  }
  if (header.decodedBytes > maxDecodedBytes) {
    return `declares ${header.decodedBytes} bytes of decoded pixels; at most ${maxDecodedBytes} are accepted`;
  }
  if (header.scans > maxJpegScans) return `has ${header.scans} JPEG scans; at most ${maxJpegScans} are accepted`;
  return undefined;
}

const COUNTRY = /^[A-Z]{2}$/;
const SORT_CODE = /^(\d{2})-?(\d{2})-?(\d{2})$/;
/** A bank account number as banks print them: 4 to 34 letters and digits. */
const ACCOUNT_NUMBER = /^[A-Za-z0-9]{4,34}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A positive plain decimal with at most 12 places, such as 0.7931 or 1.1642. */
const RATE = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,12})?$/;
const MAX_REFERENCE_RATES = 200;
/** One address: a local part, `@`, and a domain with a dot; no spaces. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** The longest page address taken, as for the checkout's return address (ADR 1112). */
const MAX_URL_LENGTH = 2048;

/**
 * A page address the checkout may link to (ADR 1113): absolute http or https, with a host, without
 * credentials, at most 2,048 characters. Any other scheme (`javascript:`, `data:`, `mailto:`) is
 * refused, so a link on the page can only open a web page. Returns the problem, or undefined.
 */
export function sellerLinkProblem(value: string): string | undefined {
  const problem = 'must be an absolute http or https address of at most 2048 characters, without credentials';
  if (value.length === 0 || value.length > MAX_URL_LENGTH || /\s/.test(value)) return problem;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return problem;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return problem;
  if (url.hostname === '' || url.username !== '' || url.password !== '') return problem;
  return undefined;
}

function link(field: string, value: string | null, problems: FieldError[]): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  const problem = sellerLinkProblem(trimmed);
  if (problem) problems.push({ field, message: problem });
  return trimmed;
}

function text(field: string, value: string | null, max: number, problems: FieldError[]): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > max) {
    problems.push({ field, message: `must be 1 to ${max} characters, or null` });
  }
  return trimmed;
}

function paymentInstructionsOf(
  input: NonNullable<UpdateSellerDetailsInput['paymentInstructions']>,
  problems: FieldError[],
): PaymentInstructions {
  const field = (name: string) => `payment_instructions.${name}`;
  const iban = input.iban ? electronicFormatIBAN(input.iban) : null;
  if (input.iban && (!iban || !isValidIBAN(iban))) {
    problems.push({
      field: field('iban'),
      message: 'must be an IBAN whose length and check digits hold for its country',
    });
  }
  const bic = input.bic ? input.bic.trim().toUpperCase() : null;
  if (bic !== null && !isValidBIC(bic)) {
    problems.push({ field: field('bic'), message: 'must be a BIC of 8 or 11 characters, such as NWBKGB2L' });
  }
  const accountNumber = input.accountNumber ? input.accountNumber.replace(/[\s-]/g, '') : null;
  if (accountNumber !== null && !ACCOUNT_NUMBER.test(accountNumber)) {
    problems.push({ field: field('account_number'), message: 'must be 4 to 34 letters and digits' });
  }
  const sortCodeMatch = input.sortCode ? SORT_CODE.exec(input.sortCode.trim()) : null;
  if (input.sortCode && !sortCodeMatch) {
    problems.push({ field: field('sort_code'), message: 'must be six digits, such as 12-34-56' });
  }
  const instructions: PaymentInstructions = {
    accountName: text(field('account_name'), input.accountName ?? null, 200, problems),
    iban: iban && isValidIBAN(iban) ? iban : null,
    bic,
    accountNumber,
    sortCode: sortCodeMatch ? `${sortCodeMatch[1]}-${sortCodeMatch[2]}-${sortCodeMatch[3]}` : null,
    text: text(field('text'), input.text ?? null, 1000, problems),
  };
  if (!instructions.iban && !instructions.accountNumber && !instructions.text && !input.iban) {
    problems.push({
      field: 'payment_instructions',
      message: 'must name an account to pay into (iban or account_number) or say how to pay (text)',
    });
  }
  if (instructions.sortCode && !instructions.accountNumber) {
    problems.push({ field: field('account_number'), message: 'is required with a sort_code' });
  }
  return instructions;
}

function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function referenceRatesOf(
  input: readonly ReferenceRate[],
  taxCurrency: string | null,
  problems: FieldError[],
): ReferenceRate[] {
  if (input.length > MAX_REFERENCE_RATES) {
    problems.push({ field: 'reference_rates', message: `must hold at most ${MAX_REFERENCE_RATES} rates` });
    return [];
  }
  const seen = new Set<string>();
  return input.map((rate, index) => {
    const field = (name: string) => `reference_rates[${index}].${name}`;
    if (!isSupportedCurrency(rate.currencyCode)) {
      problems.push({ field: field('currency_code'), message: 'must be a supported currency code' });
    } else if (rate.currencyCode === taxCurrency) {
      problems.push({ field: field('currency_code'), message: 'must differ from tax_currency' });
    }
    if (!RATE.test(rate.rate) || Decimal.parse(rate.rate).isZero()) {
      problems.push({
        field: field('rate'),
        message: 'must be a positive decimal with at most 12 places, such as 0.7931',
      });
    }
    if (!isCalendarDay(rate.date)) problems.push({ field: field('date'), message: 'must be a date, YYYY-MM-DD' });
    const key = `${rate.currencyCode} ${rate.date}`;
    if (seen.has(key)) problems.push({ field: field('date'), message: 'repeats a currency and date already listed' });
    seen.add(key);
    const source = text(field('source'), rate.source, 100, problems) ?? '';
    return { currencyCode: rate.currencyCode, rate: rate.rate, date: rate.date, source };
  });
}

/**
 * Sets the given fields (absent ones keep their value, null clears one). Every field is checked
 * before anything is written: one bad field changes nothing.
 */
export async function updateSellerDetails(
  context: SellerDetailsContext,
  input: UpdateSellerDetailsInput,
): Promise<SellerDetailsView> {
  const problems: FieldError[] = [];
  const changes: { -readonly [Key in keyof SellerDetails]?: SellerDetails[Key] } = {};
  if (input.legalName !== undefined) changes.legalName = text('legal_name', input.legalName, 200, problems);
  if (input.taxIdentifier !== undefined)
    changes.taxIdentifier = text('tax_identifier', input.taxIdentifier, 64, problems);
  if (input.companyNumber !== undefined)
    changes.companyNumber = text('company_number', input.companyNumber, 64, problems);
  if (input.email !== undefined) {
    changes.email = text('email', input.email, 320, problems);
    if (changes.email && !EMAIL.test(changes.email))
      problems.push({ field: 'email', message: 'must be an email address' });
  }
  if (input.address !== undefined) {
    const address = input.address;
    if (address === null) changes.address = null;
    else {
      const countryCode = address.countryCode ?? '';
      if (!COUNTRY.test(countryCode)) {
        problems.push({ field: 'address.country_code', message: 'must be an ISO 3166-1 alpha-2 code such as GB' });
      }
      changes.address = {
        firstLine: text('address.first_line', address.firstLine ?? null, 300, problems),
        secondLine: text('address.second_line', address.secondLine ?? null, 300, problems),
        city: text('address.city', address.city ?? null, 200, problems),
        postalCode: text('address.postal_code', address.postalCode ?? null, 100, problems),
        region: text('address.region', address.region ?? null, 200, problems),
        countryCode,
      };
    }
  }
  if (input.paymentInstructions !== undefined) {
    changes.paymentInstructions =
      input.paymentInstructions === null ? null : paymentInstructionsOf(input.paymentInstructions, problems);
  }
  if (input.taxCurrency !== undefined) {
    if (input.taxCurrency !== null && !isSupportedCurrency(input.taxCurrency)) {
      problems.push({ field: 'tax_currency', message: 'must be a supported currency code, or null' });
    }
    changes.taxCurrency = input.taxCurrency;
  }
  if (input.referenceRates !== undefined) {
    const taxCurrency =
      input.taxCurrency !== undefined ? input.taxCurrency : ((await findSellerDetails(context))?.taxCurrency ?? null);
    changes.referenceRates = referenceRatesOf(input.referenceRates, taxCurrency, problems);
  }
  if (input.termsUrl !== undefined) changes.termsUrl = link('terms_url', input.termsUrl, problems);
  if (input.privacyUrl !== undefined) changes.privacyUrl = link('privacy_url', input.privacyUrl, problems);
  if (input.refundPolicyUrl !== undefined)
    changes.refundPolicyUrl = link('refund_policy_url', input.refundPolicyUrl, problems);
  if (input.contactUrl !== undefined) changes.contactUrl = link('contact_url', input.contactUrl, problems);
  if (problems.length > 0) {
    throw new BillingError(
      'invalid_field',
      `Invalid seller details: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`,
      problems,
    );
  }
  if (input.logo !== undefined) changes.logo = input.logo === null ? null : await logoOf(context, input.logo.data);

  return context.store.transaction(async (tx) => {
    const current = await tx.sellerDetails.findByIdForUpdate(context.scope, 'seller');
    const details: SellerDetails = { ...EMPTY, ...current, ...changes, updatedAt: nowTimestamp(context) };
    if (current) await tx.sellerDetails.update(context.scope, details);
    else await tx.sellerDetails.insert(context.scope, details);
    return sellerDetailsView(details);
  });
}
